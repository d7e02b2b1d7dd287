import { http } from '#lib/http/index.ts';
import { MarkReadBody, MarkReadResult, markNotificationsRead } from '#lib/notifications/service.ts';

/** POST /api/user/markNotificationsRead: mark the given notifications (or all) read. */
export const handler = http(
  {
    body: MarkReadBody,
    response: MarkReadResult,
    errors: [404],
    summary: "Mark the caller's notifications read (all when no ids are given)",
  },
  async ({ body, principal }) => markNotificationsRead(principal.userId, body),
);
