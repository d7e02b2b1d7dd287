/** The caller's notifications: read newest first with a cursor, and marked read. */

import { advanceReadMark, getReadMark, listNotificationsPage, markRead } from '#lib/db/notifications.ts';
import { NotFound } from '#lib/errors.ts';
import { notificationPath } from '#lib/notifications/links.ts';
import { CursorParam } from '#lib/table/cursor.ts';
import { IntParam } from '#lib/values/params.ts';
import * as z from '#lib/zod.ts';

export const NotificationKindSchema = z.enum([
  'match',
  'ordered',
  'sold',
  'verified',
  'delivered',
  'cancelled',
  'unlisted',
  'message',
  'handover',
  'saved',
  'fulfilled',
]);

export const Notification = z.strictObject({
  id: z.string(),
  message: z.string(),
  date: z.iso.datetime(),
  read: z.boolean(),
  kind: NotificationKindSchema,
  bookId: z.optional(z.string()),
  /** the conversation a `message` notification opens */
  conversationId: z.optional(z.string()),
  /** the order a `handover` notification (or a buyer's purchase notification) opens */
  orderId: z.optional(z.string()),
  /** the page of the web app it talks about, as a path (`/books/<id>`, `/orders/<id>`, ...) */
  link: z.string().check(z.startsWith('/')),
});
export type Notification = z.infer<typeof Notification>;

export const NotificationsQuery = z.strictObject({
  limit: z._default(IntParam(1, 100), 20),
  cursor: z.optional(CursorParam),
});

export const MarkReadBody = z.strictObject({
  ids: z.optional(
    z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.minLength(1), z.maxLength(100)),
  ),
});

export const MarkReadResult = z.strictObject({
  /** the ids marked read, or null when every notification was */
  ids: z.nullable(z.array(z.string())),
  /** with no ids: everything dated up to this time counts as read */
  readBefore: z.nullable(z.iso.datetime()),
});

export async function getNotifications(
  userId: string,
  query: z.output<typeof NotificationsQuery>,
): Promise<{ items: Notification[]; next: string | null }> {
  const [page, readBefore] = await Promise.all([
    listNotificationsPage(userId, query.limit, query.cursor),
    getReadMark(userId),
  ]);
  const items = page.items.map((n) => ({
    id: n.id,
    message: n.message,
    date: n.date,
    read: n.read || (readBefore !== null && n.date <= readBefore),
    kind: n.kind,
    ...(n.bookId ? { bookId: n.bookId } : {}),
    ...(n.conversationId ? { conversationId: n.conversationId } : {}),
    ...(n.orderId ? { orderId: n.orderId } : {}),
    link: notificationPath(n),
  }));
  return { items, next: page.next };
}

export async function markNotificationsRead(
  userId: string,
  body: z.output<typeof MarkReadBody>,
): Promise<z.output<typeof MarkReadResult>> {
  if (!body.ids) {
    const at = new Date().toISOString();
    await advanceReadMark(userId, at);
    return { ids: null, readBefore: at };
  }
  const ids = [...new Set(body.ids)];
  if (!(await markRead(userId, ids))) throw new NotFound('No such notification.');
  return { ids, readBefore: null };
}
