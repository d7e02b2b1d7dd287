import { UpdateBookBody } from '#lib/books/inputs.ts';
import { updateBook } from '#lib/books/listings.ts';
import { Book } from '#lib/books/schemas.ts';
import { http } from '#lib/http/index.ts';

/**
 * POST /api/books/updateBook: changes any field of the caller's unsold book (status 0 or 5): name,
 * edition, course, ISBN, author, price, condition, comments, checked as postBook checks them.
 */
export const handler = http(
  {
    body: UpdateBookBody,
    response: Book,
    errors: [404, 409],
    summary: "Change any field of the caller's unsold book",
  },
  async ({ body, principal }) => updateBook(principal.userId, body),
);
