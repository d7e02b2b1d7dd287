/**
 * Fixed-window counters (THROTTLE#<action>#<subject>#<windowStart> / THROTTLE), moved with an
 * atomic ADD so every Lambda instance sees the same count. Each window's item carries a TTL a
 * little after the window AFTER it ends (the sliding estimate of lib/accounts/throttle.ts reads
 * the previous window's count all through the current one); the window start in the key means an
 * old count never leaks into a new window even before TTL deletion.
 */

import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand, UpdateCommand } from '#lib/table/commands.ts';
import { isConditionFailed } from '#lib/table/conditions.ts';
import { throttleWindowKey } from './keys.ts';

export interface Window {
  /** epoch seconds */
  start: number;
  /** epoch seconds */
  end: number;
}

/** When a window's count may go: a minute after the next window ends. */
const expiryOf = (window: Window): number => 2 * window.end - window.start + 60;

/** The read of a window's count (consistent, projected). */
const countInWindowInput = (action: string, subject: string, window: Window) => ({
  TableName: TABLE,
  Key: throttleWindowKey(action, subject, window.start),
  ProjectionExpression: '#count',
  ExpressionAttributeNames: { '#count': 'count' },
  ConsistentRead: true,
});

/** The count of the window, without changing it. */
export async function countInWindow(action: string, subject: string, window: Window): Promise<number> {
  const out = await db.send(new GetCommand(countInWindowInput(action, subject, window)));
  const count = (out.Item as { count?: number } | undefined)?.count;
  return typeof count === 'number' ? count : 0;
}

/** The conditional ADD of addToWindowIfBelow. */
const addToWindowIfBelowInput = (action: string, subject: string, window: Window, allowed: number) => ({
  TableName: TABLE,
  Key: throttleWindowKey(action, subject, window.start),
  UpdateExpression: 'ADD #count :one SET #type = :type, #ttl = :ttl',
  ConditionExpression: 'attribute_not_exists(#count) OR #count < :allowed',
  ExpressionAttributeNames: { '#count': 'count', '#type': 'type', '#ttl': 'ttl' },
  ExpressionAttributeValues: {
    ':one': 1,
    ':type': 'throttle',
    ':ttl': expiryOf(window),
    ':allowed': allowed,
  },
  ReturnValues: 'UPDATED_NEW' as const,
});

/**
 * Adds one to the window's count only while the count is below `allowed`, atomically (a
 * conditional ADD): concurrent callers can never take more than `allowed`. The new count, or null
 * when the window is full.
 */
export async function addToWindowIfBelow(
  action: string,
  subject: string,
  window: Window,
  allowed: number,
): Promise<number | null> {
  if (allowed <= 0) return null;
  try {
    const out = await db.send(new UpdateCommand(addToWindowIfBelowInput(action, subject, window, allowed)));
    return Number((out.Attributes as { count?: number } | undefined)?.count ?? 1);
  } catch (err) {
    if (isConditionFailed(err)) return null;
    throw err;
  }
}

/** The conditional ADD -1 of removeFromWindow. */
const removeFromWindowInput = (action: string, subject: string, window: Window) => ({
  TableName: TABLE,
  Key: throttleWindowKey(action, subject, window.start),
  UpdateExpression: 'ADD #count :minusOne',
  ConditionExpression: '#count > :zero',
  ExpressionAttributeNames: { '#count': 'count' },
  ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
});

/** Gives back one count taken with addToWindowIfBelow (the attempt succeeded, so it is no failure). */
export async function removeFromWindow(action: string, subject: string, window: Window): Promise<void> {
  await db.send(new UpdateCommand(removeFromWindowInput(action, subject, window))).catch((err: unknown) => {
    if (!isConditionFailed(err)) throw err;
  });
}
