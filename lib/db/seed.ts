/**
 * Bulk writes for seeding large tables (the benchmark): the same stored items the repositories
 * write one at a time, put with BatchWriteItem (25 a call, unprocessed items retried). Not used
 * by any request path. Counters are set once at the end with `addToCounters`.
 */

import { db, TABLE } from '#lib/table/client.ts';
import { BatchWriteCommand } from '#lib/table/commands.ts';
import { bookItem } from './books.ts';
import { addCounters, zeroUserStatsItem } from './counters.ts';
import { emailKey, userKey, usersIndex } from './keys.ts';
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
  await putItemsBatch(users.flatMap((u) => [userItem(u), emailItem(u), zeroUserStatsItem(u.id)]));
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
  await addCounters({
    global,
    users: [...activeListingsByUser].map(([userId, n]) => ({ userId, deltas: { activeListings: n } })),
  });
}
