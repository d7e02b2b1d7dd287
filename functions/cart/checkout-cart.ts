import { http, Reply } from '#lib/http/index.ts';
import { checkoutCart, parseIdempotencyKey } from '#lib/orders/checkout.ts';
import { Order } from '#lib/orders/schemas.ts';

/**
 * POST /api/books/checkoutCart: buys every book in the caller's cart, all or nothing (201 with the
 * order). With an Idempotency-Key header a retry answers the same order (Idempotent-Replayed: true).
 */
export const handler = http(
  {
    response: Order,
    status: 201,
    errors: [409, 422, 503],
    headers: ['Idempotency-Key'],
    summary:
      'Buy the cart in one atomic transaction at the prices the buyer saw; 409 names books no longer available or repriced, 422 for a reused Idempotency-Key',
  },
  async ({ principal, headers }) => {
    const key = parseIdempotencyKey(headers['idempotency-key']);
    const { order, replayed } = await checkoutCart(principal.userId, key);
    return new Reply(order, 201, replayed ? { headers: { 'Idempotent-Replayed': 'true' } } : {});
  },
);
