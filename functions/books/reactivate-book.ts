import { BookIdBody } from '#lib/books/inputs.ts';
import { reactivateBook } from '#lib/books/listings.ts';
import { Book } from '#lib/books/schemas.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/books/reactivateBook: lists the caller's unlisted book again (5 -> 0) with a fresh date. */
export const handler = http(
  {
    body: BookIdBody,
    response: Book,
    errors: [404, 409],
    summary: 'List an unlisted book again',
  },
  async ({ body, principal }) => reactivateBook(principal.userId, body.bookId),
);
