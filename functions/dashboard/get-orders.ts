import { getOrders } from '#lib/dashboard/listings.ts';
import { AdminOrderList, OrdersQuery } from '#lib/dashboard/schemas.ts';
import { http, page } from '#lib/http/index.ts';

/** GET /api/dashboard/getOrders: orders of one status, newest first, with contacts (admin). */
export const handler = http(
  {
    auth: 'required',
    role: 'admin',
    query: OrdersQuery,
    response: AdminOrderList,
    paged: true,
    errors: [403],
    summary: 'Orders, with buyer and seller contacts',
  },
  async ({ query }) => {
    const result = await getOrders(query.status, query.limit, query.cursor);
    return page(result.orders, result.next);
  },
);
