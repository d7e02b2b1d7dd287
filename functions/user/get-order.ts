import { http } from '#lib/http/index.ts';
import { getOrder } from '#lib/orders/history.ts';
import { OrderIdParams, OrderWithStatus } from '#lib/orders/schemas.ts';

/** GET /api/user/getOrder/{orderId}: one of the caller's orders with each book's current status. */
export const handler = http(
  {
    params: OrderIdParams,
    response: OrderWithStatus,
    errors: [404],
    summary: "One of the caller's orders, each book with its status now; anyone else's is 404",
  },
  async ({ params, principal }) => getOrder(principal.userId, params.orderId),
);
