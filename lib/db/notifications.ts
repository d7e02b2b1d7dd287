/**
 * Notifications repository: in-app notifications, written once per cause (deterministic id,
 * conditional put), each carrying the state of its e-mail so the e-mail is sent once.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.ts';
import { isConditionFailed } from './conditions.ts';
import {
  INDEX,
  notificationIndexes,
  notificationKey,
  notificationsOfUserPk,
  notificationsReadMarkKey,
} from './keys.ts';
import { TransactionRefused, tag, transactWrite } from './transact.ts';
import { updateIf } from './write-if.ts';

export type NotificationKind = 'match' | 'sold' | 'verified' | 'delivered' | 'cancelled' | 'unlisted';

/**
 * pending: to be sent; sending: claimed by a consumer at `emailClaimedAt`; sent: done;
 * none: nothing to send (no address, or the user's preferences); digest: left to the daily digest.
 */
export type EmailState = 'pending' | 'sending' | 'sent' | 'none' | 'digest';

/** USER#<uid> / NOTIF#<id>, plus notificationIndexes(...) attributes */
export interface NotificationRecord {
  type: 'notification';
  id: string;
  userId: string;
  kind: NotificationKind;
  message: string;
  bookId?: string;
  date: string;
  read: boolean;
  emailState: EmailState;
  emailClaimedAt?: string;
  emailSentAt?: string;
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
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: notificationKey(userId, id), ConsistentRead: true }),
  );
  return (out.Item as NotificationRecord | undefined) ?? null;
}

/**
 * Moves the e-mail state from `from` (and, for a taken-over claim, the claim time seen) to `to`.
 * False when someone else moved it first.
 */
export async function moveEmailState(
  userId: string,
  id: string,
  from: { state: EmailState; claimedAt?: string | undefined },
  to: { state: EmailState; at: string },
): Promise<boolean> {
  const names: Record<string, string> = { '#state': 'emailState' };
  const values: Record<string, unknown> = { ':from': from.state, ':to': to.state, ':at': to.at };
  let condition = '#state = :from';
  if (from.claimedAt !== undefined) {
    condition += ' AND emailClaimedAt = :claimed';
    values[':claimed'] = from.claimedAt;
  }
  const set =
    to.state === 'sending'
      ? 'SET #state = :to, emailClaimedAt = :at'
      : to.state === 'sent'
        ? 'SET #state = :to, emailSentAt = :at'
        : 'SET #state = :to, emailUpdatedAt = :at';
  return updateIf({
    TableName: TABLE,
    Key: notificationKey(userId, id),
    UpdateExpression: set,
    ConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}

export interface NotificationPage {
  items: NotificationRecord[];
  /** the position (`<date>#<id>`, gsi1sk) to continue after, or null at the end */
  last: string | null;
}

/** A user's notifications, newest first (gsi1), one page, after `after` (a position of this listing). */
export async function listNotifications(
  userId: string,
  limit: number,
  after: string | undefined,
): Promise<NotificationPage> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: INDEX.gsi1,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': notificationsOfUserPk(userId) },
      ScanIndexForward: false,
      Limit: limit,
      ...(after ? { ExclusiveStartKey: startKey(userId, after) } : {}),
    }),
  );
  return {
    items: (out.Items ?? []) as NotificationRecord[],
    last: (out.LastEvaluatedKey?.gsi1sk as string | undefined) ?? null,
  };
}

/** The full key (table and gsi1) of the notification at a position `<date>#<id>`. */
function startKey(userId: string, position: string): Record<string, unknown> {
  const cut = position.indexOf('#');
  const date = position.slice(0, cut);
  const id = position.slice(cut + 1);
  return { ...notificationKey(userId, id), ...notificationIndexes(userId, date, id) };
}

/** The time before which all of a user's notifications count as read (markNotificationsRead without ids). */
export async function getReadMark(userId: string): Promise<string | null> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: notificationsReadMarkKey(userId) }));
  return (out.Item?.readBefore as string | undefined) ?? null;
}

/** Moves the read mark forward to `at` (never back). */
export async function advanceReadMark(userId: string, at: string): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: notificationsReadMarkKey(userId),
        UpdateExpression: 'SET readBefore = :at',
        ConditionExpression: 'attribute_not_exists(readBefore) OR readBefore < :at',
        ExpressionAttributeValues: { ':at': at },
      }),
    );
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
  }
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
