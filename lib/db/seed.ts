/**
 * Bulk writes for seeding large tables (the benchmark): the same stored items the repositories
 * write one at a time, put with BatchWriteItem (25 a call, unprocessed items retried). Not used
 * by any request path. Counters are set once at the end with `addToCounters`.
 */
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { bookItem } from './books.ts';
import { db, TABLE } from './client.ts';
import { emailKey, globalStatsKey, userKey, userStatsKey, usersIndex } from './keys.ts';
import type { BookRecord, UserRecord } from './records.ts';
import type { EmailRecord } from './users.ts';

type Item = Record<string, unknown>;

/** The stored item of a user (key, index attributes, record). */
export const userItem = (u: UserRecord): Item => ({
  ...userKey(u.id),
  ...usersIndex(u.createdAt, u.id),
  ...u,
});

/** The stored e-mail uniqueness item of a user. */
export const emailItem = (u: UserRecord): Item => {
  const record: EmailRecord = { type: 'email', emailNormalised: u.emailNormalised, userId: u.id };
  return { ...emailKey(u.emailNormalised), ...record };
};

/** The stored item of a book, as the books repository writes it. */
export { bookItem };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Puts items, 25 a call, `parallel` calls at a time, retrying unprocessed items. */
export async function putItemsBatch(items: Item[], parallel = 4): Promise<void> {
  const chunks: Item[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const chunk = chunks[next++] as Item[];
      let pending = chunk.map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 0) await sleep(Math.min(1000, 25 * 2 ** attempt));
        if (attempt > 10) throw new Error('BatchWrite kept returning unprocessed items');
        const out = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE]: pending } }));
        pending = (out.UnprocessedItems?.[TABLE] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, chunks.length) }, worker));
}

/** Confirmed users with their e-mail items and zeroed counters. */
export async function putUsersBatch(users: UserRecord[]): Promise<void> {
  await putItemsBatch(
    users.flatMap((u) => [
      userItem(u),
      emailItem(u),
      {
        ...userStatsKey(u.id),
        type: 'userStats',
        booksBought: 0,
        booksSold: 0,
        moneyMade: 0,
        activeListings: 0,
        openRequests: 0,
      },
    ]),
  );
}

/** Books as stored by the books repository (counters: see addToCounters). */
export async function putBooksBatch(books: BookRecord[]): Promise<void> {
  await putItemsBatch(books.map(bookItem));
}

/** ADDs to the global counters and to per-user activeListings after a bulk load. */
export async function addToCounters(
  global: Record<string, number>,
  activeListingsByUser: Map<string, number>,
): Promise<void> {
  const names = Object.keys(global);
  if (names.length > 0) {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: globalStatsKey(),
        UpdateExpression: `ADD ${names.map((_, i) => `#n${i} :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#n${i}`, n])),
        ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, global[n]])),
      }),
    );
  }
  const entries = [...activeListingsByUser];
  for (let i = 0; i < entries.length; i += 16) {
    await Promise.all(
      entries.slice(i, i + 16).map(([userId, n]) =>
        db.send(
          new UpdateCommand({
            TableName: TABLE,
            Key: userStatsKey(userId),
            UpdateExpression: 'ADD activeListings :n',
            ExpressionAttributeValues: { ':n': n },
          }),
        ),
      ),
    );
  }
}
