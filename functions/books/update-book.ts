import { UpdateBookBody } from '#lib/books/inputs.ts';
import { updateBook } from '#lib/books/listings.ts';
import { Book } from '#lib/books/schemas.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/books/updateBook: changes price, condition or comments of the caller's book (status 0 or 5). */
export const handler = http(
  {
    body: UpdateBookBody,
    response: Book,
    errors: [404, 409],
    summary: "Change a book's price, condition or comments",
  },
  async ({ body, principal }) => updateBook(principal.userId, body),
);
