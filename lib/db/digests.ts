/**
 * Match e-mail bookkeeping: the per-(user, book) mark that stops a relisted book from e-mailing the
 * same requester again within 7 days, and the daily digest's entries and per-user claims.
 */

import { db, TABLE } from '#lib/table/client.ts';
import { DeleteCommand, PutCommand } from '#lib/table/commands.ts';
import { getItem } from '#lib/table/items.ts';
import { type Page, partitionPage } from '#lib/table/page.ts';
import { putIf, updateIf } from '#lib/table/write-if.ts';
import { expiresAfter } from '#lib/values/expiry.ts';
import { digestDayPk, digestEntryKey, digestRunKey, digestSentKey, matchMailKey } from './keys.ts';

const DAY_MS = 24 * 3600 * 1000;
export const MATCH_EMAIL_QUIET_DAYS = 7;

const ttlAfter = (now: Date, days: number) => expiresAfter(now, (days * DAY_MS) / 1000);

/**
 * Takes the right to e-mail `userId` about this listing of `bookId` (dated `bookDate`): granted when
 * no e-mail about the book went out in the last 7 days, or the last one was about this same listing
 * (a redelivered stream record). One conditional UpdateItem.
 */
export async function claimMatchEmail(
  userId: string,
  bookId: string,
  bookDate: string,
  now: Date,
): Promise<boolean> {
  return updateIf({
    TableName: TABLE,
    Key: matchMailKey(userId, bookId),
    UpdateExpression: 'SET #type = :type, #at = :at, bookDate = :bd, #ttl = :ttl',
    ConditionExpression: 'attribute_not_exists(pk) OR bookDate = :bd OR #at < :cutoff',
    ExpressionAttributeNames: { '#type': 'type', '#at': 'at', '#ttl': 'ttl' },
    ExpressionAttributeValues: {
      ':type': 'matchMail',
      ':at': now.toISOString(),
      ':bd': bookDate,
      ':cutoff': new Date(now.getTime() - MATCH_EMAIL_QUIET_DAYS * DAY_MS).toISOString(),
      ':ttl': ttlAfter(now, MATCH_EMAIL_QUIET_DAYS + 1),
    },
  });
}

/** DIGEST#<day> / <userId>#<bookId> */
export interface DigestEntry {
  type: 'digestEntry';
  day: string;
  userId: string;
  bookId: string;
  notificationId: string;
  at: string;
}

/** Queues a match for the user's digest of `day` (idempotent: same key). */
export async function putDigestEntry(entry: Omit<DigestEntry, 'type'>, now: Date): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: {
        ...digestEntryKey(entry.day, entry.userId, entry.bookId),
        type: 'digestEntry',
        ...entry,
        ttl: ttlAfter(now, 8),
      },
    }),
  );
}

/** One page of a day's digest entries, in (user, book) order. */
export const listDigestEntries = (
  day: string,
  limit: number,
  after: string | undefined,
): Promise<Page<DigestEntry>> => partitionPage(digestDayPk(day), limit, after);

/**
 * Claims the digest of `day` for a user before sending it (conditional put): false when it was
 * claimed already, by an earlier run or a concurrent one.
 */
export async function claimDigest(userId: string, day: string, now: Date): Promise<boolean> {
  return putIf({
    TableName: TABLE,
    Item: {
      ...digestSentKey(userId, day),
      type: 'digestSent',
      day,
      at: now.toISOString(),
      ttl: ttlAfter(now, 8),
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  });
}

/** Gives a claim back (the send failed), so the next run tries again. */
export async function releaseDigest(userId: string, day: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: TABLE, Key: digestSentKey(userId, day) }));
}

/** How far the digest of `day` got: done, or the page cursor to carry on from (none: the start). */
export interface DigestRunState {
  done: boolean;
  after?: string;
}

/** One GetItem: the state a run of `day` left (nothing yet: not started). */
export async function getDigestRun(day: string): Promise<DigestRunState> {
  const run = await getItem(digestRunKey(day));
  return { done: run?.done === true, ...(typeof run?.after === 'string' ? { after: run.after } : {}) };
}

/** Records how far the digest of `day` got (kept 8 days, as long as its entries). */
export async function putDigestRun(day: string, state: DigestRunState, now: Date): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: {
        ...digestRunKey(day),
        type: 'digestRun',
        day,
        done: state.done,
        ...(state.after ? { after: state.after } : {}),
        at: now.toISOString(),
        ttl: ttlAfter(now, 8),
      },
    }),
  );
}
