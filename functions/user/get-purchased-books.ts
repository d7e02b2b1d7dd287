import { callerPage } from '#lib/http/caller-page.ts';
import { getPurchasedBooks } from '#lib/orders/history.ts';
import { HistoryQuery, PurchasedBook } from '#lib/orders/schemas.ts';

/** GET /api/user/getPurchasedBooks: books the caller bought (status 1, 2, 3), newest purchase first. */
export const handler = callerPage(
  { query: HistoryQuery, item: PurchasedBook, summary: 'Books the caller bought, with their status' },
  getPurchasedBooks,
);
