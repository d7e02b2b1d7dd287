import { http, page } from '#lib/http/index.ts';
import { getPurchasedBooks } from '#lib/orders/history.ts';
import { HistoryQuery, PurchasedBook } from '#lib/orders/schemas.ts';
import * as z from '#lib/zod.ts';

/** GET /api/user/getPurchasedBooks: books the caller bought (status 1, 2, 3), newest purchase first. */
export const handler = http(
  {
    auth: 'required',
    query: HistoryQuery,
    response: z.array(PurchasedBook),
    paged: true,
    summary: 'Books the caller bought, with their status',
  },
  async ({ query, principal }) => {
    const result = await getPurchasedBooks(principal.userId, query);
    return page(result.items, result.next);
  },
);
