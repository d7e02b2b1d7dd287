import { DeleteBookBody } from '#lib/books/inputs.ts';
import { deleteBook } from '#lib/books/listings.ts';
import { Book, RemovedBook } from '#lib/books/schemas.ts';
import { http } from '#lib/http/index.ts';
import * as z from '#lib/zod.ts';

/** POST /api/books/deleteBook: unlists the caller's book (0 -> 5), or removes it for good (`permanent`). */
export const handler = http(
  {
    body: DeleteBookBody,
    response: z.union([Book, RemovedBook]),
    errors: [404, 409],
    summary: 'Unlist a book, or remove it for good',
  },
  async ({ body, principal }) => deleteBook(principal.userId, body.bookId, body.permanent ?? false),
);
