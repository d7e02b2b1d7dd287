import { callerPage } from '#lib/http/caller-page.ts';
import { getSoldBooks } from '#lib/orders/history.ts';
import { HistoryQuery, SoldBook } from '#lib/orders/schemas.ts';

/** GET /api/user/getSoldBooks: the caller's books that were bought (status 1, 2, 3), never unlisted ones. */
export const handler = callerPage(
  { query: HistoryQuery, item: SoldBook, summary: 'The caller’s books that were bought, with their status' },
  getSoldBooks,
);
