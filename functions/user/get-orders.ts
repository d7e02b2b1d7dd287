import { callerPage } from '#lib/http/caller-page.ts';
import { getOrders } from '#lib/orders/history.ts';
import { HistoryQuery, Order } from '#lib/orders/schemas.ts';

/** GET /api/user/getOrders: the caller's orders, newest first, by cursor. */
export const handler = callerPage(
  { query: HistoryQuery, item: Order, summary: "The caller's orders, newest first" },
  getOrders,
);
