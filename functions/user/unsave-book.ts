import { http } from '#lib/http/index.ts';
import { unsaveBook } from '#lib/saved/saved.ts';
import { SavedBookBody, UnsaveBookResult } from '#lib/saved/schemas.ts';

/** POST /api/user/unsaveBook: stops keeping an eye on a book (harmless if it was not saved). */
export const handler = http(
  { body: SavedBookBody, response: UnsaveBookResult, summary: 'Unsave a book' },
  async ({ body, principal }) => unsaveBook(principal.userId, body.bookId),
);
