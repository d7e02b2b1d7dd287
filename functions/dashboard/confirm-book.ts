import { confirmBook } from '#lib/dashboard/handover.ts';
import { BookIdBody, MovedBook } from '#lib/dashboard/schemas.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/dashboard/confirmBook: condition verified, buyer charged (1 -> 2) (admin). */
export const handler = http(
  {
    role: 'admin',
    body: BookIdBody,
    response: MovedBook,
    errors: [404, 409],
    summary: 'Confirm a bought book (1 -> 2)',
  },
  async ({ body, principal }) => confirmBook(principal.userId, body.bookId),
);
