import { getOrders } from '#lib/dashboard/listings.ts';
import { AdminOrderList, OrdersQuery } from '#lib/dashboard/schemas.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/dashboard/getOrders: orders of one status, newest first, with contacts (admin). */
export const handler = http(
  {
    role: 'admin',
    query: OrdersQuery,
    response: AdminOrderList,
    paged: true,
    summary: 'Orders, with buyer and seller contacts',
  },
  async ({ query }) => getOrders(query.status, query.limit, query.cursor),
);
