import { callerPage } from '#lib/http/caller-page.ts';
import { getNotifications, Notification, NotificationsQuery } from '#lib/notifications/service.ts';

/** GET /api/user/getNotifications?limit=&cursor=: the caller's notifications, newest first. */
export const handler = callerPage(
  {
    query: NotificationsQuery,
    item: Notification,
    summary: "The caller's notifications, newest first, with a read flag",
  },
  getNotifications,
);
