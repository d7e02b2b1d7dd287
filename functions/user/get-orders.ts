import { http, page } from '#lib/http/index.ts';
import { getOrders } from '#lib/orders/history.ts';
import { HistoryQuery, Order } from '#lib/orders/schemas.ts';
import * as z from '#lib/zod.ts';

/** GET /api/user/getOrders: the caller's orders, newest first, by cursor. */
export const handler = http(
  {
    auth: 'required',
    query: HistoryQuery,
    response: z.array(Order),
    paged: true,
    summary: "The caller's orders, newest first",
  },
  async ({ query, principal }) => {
    const result = await getOrders(principal.userId, query);
    return page(result.items, result.next);
  },
);
