import { cancelPurchase } from '#lib/dashboard/handover.ts';
import { CancelBody, MovedBook } from '#lib/dashboard/schemas.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/dashboard/cancelPurchase: undo a purchase and relist the book (1 or 2 -> 0; 5 for a suspended seller) (admin). */
export const handler = http(
  {
    role: 'admin',
    body: CancelBody,
    response: MovedBook,
    errors: [404, 409],
    summary:
      'Cancel a purchase and relist the book (1 or 2 -> 0; to 5, unlisted, when the seller is suspended)',
  },
  async ({ body, principal }) => cancelPurchase(principal.userId, body.bookId, body.reason),
);
