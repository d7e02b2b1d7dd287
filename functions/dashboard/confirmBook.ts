import { confirmBook } from '#lib/admin/handover.ts';
import { BookIdBody, MovedBook } from '#lib/admin/schemas.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/dashboard/confirmBook: condition verified, buyer charged (1 -> 2) (admin). */
export const handler = http(
  {
    auth: 'required',
    role: 1,
    body: BookIdBody,
    response: MovedBook,
    errors: [403, 404, 409],
    summary: 'Confirm a bought book (1 -> 2)',
  },
  async ({ body, principal }) => confirmBook(principal.userId, body.bookId),
);
