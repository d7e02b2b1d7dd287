import { setBookPaid } from '#lib/dashboard/handover.ts';
import { BookIdBody, MovedBook } from '#lib/dashboard/schemas.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/dashboard/setBookPaid: delivered, seller paid (2 -> 3) (admin). */
export const handler = http(
  {
    role: 'admin',
    body: BookIdBody,
    response: MovedBook,
    errors: [404, 409],
    summary: 'Mark a confirmed book delivered and paid (2 -> 3)',
  },
  async ({ body, principal }) => setBookPaid(principal.userId, body.bookId),
);
