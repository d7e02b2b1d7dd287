import { viewBook } from '#lib/books/listings.ts';
import { Book } from '#lib/books/schemas.ts';
import { BookId } from '#lib/cart/schemas.ts';
import { http } from '#lib/http/index.ts';
import * as z from '#lib/zod.ts';

/** GET /api/books/getBook/{bookId}: one book; a listed one to anyone, others to its owner, buyer or an admin. */
export const handler = http(
  {
    auth: 'optional',
    params: z.strictObject({ bookId: BookId }),
    response: Book,
    errors: [404],
    summary: 'One book: listed ones to anyone (inCart with a token); others only to owner, buyer or admin',
  },
  async ({ params, principal }) => viewBook(principal, params.bookId),
);
