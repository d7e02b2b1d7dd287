import { http } from '#lib/http/index.ts';
import { getSoldBooks } from '#lib/orders/history.ts';
import { HistoryQuery, SoldBook } from '#lib/orders/schemas.ts';
import * as z from '#lib/zod.ts';

/** GET /api/user/getSoldBooks: the caller's books that were bought (status 1, 2, 3), never unlisted ones. */
export const handler = http(
  {
    query: HistoryQuery,
    response: z.array(SoldBook),
    paged: true,
    summary: 'The caller’s books that were bought, with their status',
  },
  async ({ query, principal }) => getSoldBooks(principal.userId, query),
);
