import { http } from '#lib/http/index.ts';
import { getNotifications, Notification, NotificationsQuery } from '#lib/notifications/service.ts';
import * as z from '#lib/zod.ts';

/** GET /api/user/getNotifications?limit=&cursor=: the caller's notifications, newest first. */
export const handler = http(
  {
    query: NotificationsQuery,
    response: z.array(Notification),
    paged: true,
    summary: "The caller's notifications, newest first, with a read flag",
  },
  async ({ query, principal }) => getNotifications(principal.userId, query),
);
