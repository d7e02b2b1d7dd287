import { http } from '#lib/http/index.ts';
import { getOrders } from '#lib/orders/history.ts';
import { HistoryQuery, Order } from '#lib/orders/schemas.ts';
import * as z from '#lib/zod.ts';

/** GET /api/user/getOrders: the caller's orders, newest first, by cursor. */
export const handler = http(
  {
    query: HistoryQuery,
    response: z.array(Order),
    paged: true,
    summary: "The caller's orders, newest first",
  },
  async ({ query, principal }) => getOrders(principal.userId, query),
);
