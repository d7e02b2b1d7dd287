/** The caller's notifications: read newest first with a cursor, and marked read. */
import { z } from 'zod';
import { notificationsOfUserPk } from '../db/keys.ts';
import { advanceReadMark, getReadMark, listNotifications, markRead } from '../db/notifications.ts';
import { BadRequest, NotFound } from '../http/errors.ts';

export const NotificationKindSchema = z.enum(['match', 'sold', 'verified', 'delivered', 'cancelled']);

export const Notification = z.strictObject({
  id: z.string(),
  message: z.string(),
  date: z.iso.datetime(),
  read: z.boolean(),
  kind: NotificationKindSchema,
  bookId: z.string().optional(),
});
export type Notification = z.infer<typeof Notification>;

export const NotificationsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(1000).optional(),
});

export const MarkReadBody = z.strictObject({
  ids: z.array(z.string().min(1).max(64)).min(1).max(100).optional(),
});

export const MarkReadResult = z.strictObject({
  /** the ids marked read, or null when every notification was */
  ids: z.array(z.string()).nullable(),
  /** with no ids: everything dated up to this time counts as read */
  readBefore: z.iso.datetime().nullable(),
});

const encodeCursor = (key: Record<string, unknown>) => Buffer.from(JSON.stringify(key)).toString('base64url');

/** The cursor's key, checked to be one of the caller's own (a forged cursor is a 400, never others' data). */
function decodeCursor(userId: string, cursor: string): Record<string, unknown> {
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    const fields = ['pk', 'sk', 'gsi1pk', 'gsi1sk'];
    const ok =
      key !== null &&
      typeof key === 'object' &&
      Object.keys(key).length === fields.length &&
      fields.every((f) => typeof key[f] === 'string') &&
      key.gsi1pk === notificationsOfUserPk(userId);
    if (ok) return key;
  } catch {
    /* fall through */
  }
  throw new BadRequest(
    'The cursor is invalid.',
    [{ field: 'cursor', message: 'Invalid cursor.' }],
    'VALIDATION_FAILED',
  );
}

export async function getNotifications(
  userId: string,
  query: z.output<typeof NotificationsQuery>,
): Promise<{ items: Notification[]; next: string | null }> {
  const after = query.cursor ? decodeCursor(userId, query.cursor) : undefined;
  const [page, readBefore] = await Promise.all([
    listNotifications(userId, query.limit, after),
    getReadMark(userId),
  ]);
  const items = page.items.map((n) => ({
    id: n.id,
    message: n.message,
    date: n.date,
    read: n.read || (readBefore !== null && n.date <= readBefore),
    kind: n.kind,
    ...(n.bookId ? { bookId: n.bookId } : {}),
  }));
  return { items, next: page.last ? encodeCursor(page.last) : null };
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
