import { http, page } from '#lib/http/index.ts';
import { getNotifications, Notification, NotificationsQuery } from '#lib/notifications/service.ts';
import * as z from '#lib/zod.ts';

/** GET /api/user/getNotifications?limit=&cursor=: the caller's notifications, newest first. */
export const handler = http(
  {
    auth: 'required',
    query: NotificationsQuery,
    response: z.array(Notification),
    paged: true,
    summary: "The caller's notifications, newest first, with a read flag",
  },
  async ({ query, principal }) => {
    const { items, next } = await getNotifications(principal.userId, query);
    return page(items, next);
  },
);
