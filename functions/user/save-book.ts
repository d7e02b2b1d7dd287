import { http, Reply } from '#lib/http/index.ts';
import { saveBook } from '#lib/saved/saved.ts';
import { SaveBookResult, SavedBookBody } from '#lib/saved/schemas.ts';

/** POST /api/user/saveBook: keeps an eye on a listed book of someone else (201; 200 when already saved). */
export const handler = http(
  {
    body: SavedBookBody,
    response: SaveBookResult,
    status: 201,
    alsoStatus: [200],
    errors: [404, 409],
    summary:
      'Save a book (201; 200 when it was already saved); 404 for a book the caller cannot see, 409 for one’s own or an unavailable book or past 200 saved',
  },
  async ({ body, principal }) => {
    const result = await saveBook(principal.userId, body.bookId);
    return result.added ? result : new Reply(result, 200);
  },
);
