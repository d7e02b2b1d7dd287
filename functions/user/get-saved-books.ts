import { callerPage } from '#lib/http/caller-page.ts';
import { getSavedBooks } from '#lib/saved/saved.ts';
import { SavedBook, SavedBooksQuery } from '#lib/saved/schemas.ts';

/** GET /api/user/getSavedBooks: the caller's saved books, newest saved first, by cursor. */
export const handler = callerPage(
  {
    query: SavedBooksQuery,
    item: SavedBook,
    summary:
      "The caller's saved books, newest saved first, each with its current price and whether it is available",
  },
  getSavedBooks,
);
