import { PostBookBody } from '#lib/books/inputs.ts';
import { postBook } from '#lib/books/listings.ts';
import { Book } from '#lib/books/schemas.ts';
import { created, http } from '#lib/http/index.ts';

/** POST /api/books/postBook: lists a new book of the caller (status 0, dated now). */
export const handler = http(
  {
    body: PostBookBody,
    response: Book,
    status: 201,
    errors: [409],
    summary: 'Post a book for sale; 409 when the caller already has 200 books listed',
  },
  async ({ body, principal }) => created(await postBook(principal.userId, body)),
);
