/**
 * Notifications repository: in-app notifications, written once per cause (deterministic id,
 * conditional put), each carrying the state of its e-mail so the e-mail is sent once.
 */

import { db, TABLE } from '#lib/table/client.ts';
import { PutCommand } from '#lib/table/commands.ts';
import { isConditionFailed } from '#lib/table/conditions.ts';
import { getItem } from '#lib/table/items.ts';
import { indexPageAfter, type Page, pagedList } from '#lib/table/page.ts';
import { TransactionRefused, tag, transactWrite } from '#lib/table/transact.ts';
import { setAttribute, updateIf } from '#lib/table/write-if.ts';
import * as z from '#lib/zod.ts';
import {
  notificationIndexes,
  notificationKey,
  notificationsOfUserPk,
  notificationsReadMarkKey,
} from './keys.ts';

export type NotificationKind =
  | 'match'
  | 'ordered'
  | 'sold'
  | 'verified'
  | 'delivered'
  | 'cancelled'
  | 'unlisted'
  | 'message'
  | 'handover'
  | 'saved'
  | 'fulfilled';

/**
 * pending: to be queued; queued: handed to the e-mail outbox (lib/db/outbox.ts), which sends it;
 * none: nothing to send (no address, or the user's preferences); digest: left to the daily digest.
 * (sending and sent: states of notifications stored before the outbox, when the consumer sent them.)
 */
export type EmailState = 'pending' | 'queued' | 'sending' | 'sent' | 'none' | 'digest';

/** USER#<uid> / NOTIF#<id>, plus notificationIndexes(...) attributes */
export interface NotificationRecord {
  type: 'notification';
  id: string;
  userId: string;
  kind: NotificationKind;
  message: string;
  bookId?: string;
  /** the conversation a `message` notification opens */
  conversationId?: string;
  /** the order a `handover` notification opens */
  orderId?: string;
  date: string;
  read: boolean;
  emailState: EmailState;
  emailUpdatedAt?: string;
}

/**
 * Writes the notification unless one with its id exists; returns the stored one either way
 * (a redelivery gets the first write back, with its e-mail state).
 */
export async function putNotificationOnce(
  n: NotificationRecord,
): Promise<{ created: boolean; stored: NotificationRecord }> {
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...notificationKey(n.userId, n.id), ...notificationIndexes(n.userId, n.date, n.id), ...n },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return { created: true, stored: n };
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
    const stored = await getNotification(n.userId, n.id);
    if (!stored) throw new Error('notification vanished after a failed conditional put');
    return { created: false, stored };
  }
}

export async function getNotification(userId: string, id: string): Promise<NotificationRecord | null> {
  return (await getItem<NotificationRecord>(notificationKey(userId, id))) ?? null;
}

/** Moves the e-mail state from `from` to `to`; false when someone else moved it first. */
export async function moveEmailState(
  userId: string,
  id: string,
  from: { state: EmailState },
  to: { state: EmailState; at: string },
): Promise<boolean> {
  return updateIf({
    TableName: TABLE,
    Key: notificationKey(userId, id),
    UpdateExpression: 'SET #state = :to, emailUpdatedAt = :at',
    ConditionExpression: '#state = :from',
    ExpressionAttributeNames: { '#state': 'emailState' },
    ExpressionAttributeValues: { ':from': from.state, ':to': to.state, ':at': to.at },
  });
}

/** A user's notifications, newest first (gsi1), one page, after `after` (a position of this listing). */
export const listNotifications = (
  userId: string,
  limit: number,
  after: string | undefined,
): Promise<Page<NotificationRecord>> =>
  indexPageAfter('gsi1', notificationsOfUserPk(userId), (id) => notificationKey(userId, id), limit, after);

/** A position in a user's notifications: gsi1sk, `<date>#<notification id>`. */
const Position = z
  .string()
  .check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z#[A-Za-z0-9_-]{1,64}$/));

/** A user's notifications, newest first, a page at a time (cursors signed for that user's list). */
export const listNotificationsPage = pagedList(
  (userId) => `notifications:${userId}`,
  Position,
  listNotifications,
);

/** The time before which all of a user's notifications count as read (markNotificationsRead without ids). */
export async function getReadMark(userId: string): Promise<string | null> {
  const mark = await getItem(notificationsReadMarkKey(userId), { eventual: true });
  return (mark?.readBefore as string | undefined) ?? null;
}

/** Moves the read mark forward to `at` (never back). */
export async function advanceReadMark(userId: string, at: string): Promise<void> {
  const later = { condition: 'attribute_not_exists(#a) OR #a < :v' };
  await updateIf(setAttribute(notificationsReadMarkKey(userId), 'readBefore', at, later));
}

/**
 * Marks the user's notifications with these ids read, all or none (one transaction, at most 100
 * distinct ids). False when one of them is not the user's (or does not exist): nothing changed.
 */
export async function markRead(userId: string, ids: readonly string[]): Promise<boolean> {
  if (ids.length === 0) return true;
  const outcome = await transactWrite(
    ids.map((id) =>
      tag('notification', {
        Update: {
          TableName: TABLE,
          Key: notificationKey(userId, id),
          UpdateExpression: 'SET #read = :true',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#read': 'read' },
          ExpressionAttributeValues: { ':true': true },
        },
      }),
    ),
  );
  if (outcome.ok) return true;
  if (outcome.refused.some((r) => r.code === 'ConditionalCheckFailed')) return false;
  throw new TransactionRefused(outcome.refused);
}
