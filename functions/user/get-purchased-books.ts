import { http } from '#lib/http/index.ts';
import { getPurchasedBooks } from '#lib/orders/history.ts';
import { HistoryQuery, PurchasedBook } from '#lib/orders/schemas.ts';
import * as z from '#lib/zod.ts';

/** GET /api/user/getPurchasedBooks: books the caller bought (status 1, 2, 3), newest purchase first. */
export const handler = http(
  {
    query: HistoryQuery,
    response: z.array(PurchasedBook),
    paged: true,
    summary: 'Books the caller bought, with their status',
  },
  async ({ query, principal }) => getPurchasedBooks(principal.userId, query),
);
