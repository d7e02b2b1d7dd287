/**
 * The statistics items: the service-wide counters (sharded: STATS#<n> / GLOBAL) and each user's counters
 * (USER#<id> / STATS). This module is the only writer of them: every write that changes what they
 * count puts the items built here into its own transaction (lib/table/transact.ts), so a counter never
 * drifts from the data. It imports no entity file.
 *
 * Global counters: totalUsers, totalBooks, books_s<status>, totalOrders, grossSales, feesEarned.
 * User counters: booksBought, booksSold, moneyMade (cents), activeListings, openRequests.
 */

import { batchGet } from '#lib/table/batch.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand, UpdateCommand } from '#lib/table/commands.ts';
import type { TransactItem } from '#lib/table/transact.ts';
import {
  GLOBAL_STATS_SHARDS,
  globalStatsKeys,
  globalStatsShardKey,
  type ItemKey,
  userStatsKey,
} from './keys.ts';

/** Counter name -> amount to ADD (negative to take away). */
export type Deltas = Record<string, number>;

/** Moves of the global counters and of some users' counters, made together. */
export interface CounterMoves {
  global?: Deltas;
  users?: ReadonlyArray<{ userId: string; deltas: Deltas }>;
}

export interface UserStatsRecord {
  booksBought: number;
  booksSold: number;
  /** integer cents, from books at status 3 only */
  moneyMade: number;
  activeListings: number;
  openRequests: number;
}

const USER_COUNTERS: ReadonlyArray<keyof UserStatsRecord> = [
  'booksBought',
  'booksSold',
  'moneyMade',
  'activeListings',
  'openRequests',
];

/** The ADD update of the non-zero deltas on one item, or null when nothing moves. */
/** An upper bound on one counter: a move up that would pass `max` fails the write's condition. */
export interface CounterCap {
  counter: string;
  max: number;
}

function addUpdate(key: ItemKey, deltas: Deltas, cap?: CounterCap) {
  const entries = Object.entries(deltas).filter(([, v]) => v !== 0);
  if (entries.length === 0) return null;
  const capped = cap ? entries.findIndex(([name, delta]) => name === cap.counter && delta > 0) : -1;
  const capDelta = entries[capped]?.[1] ?? 0;
  return {
    TableName: TABLE,
    Key: key,
    UpdateExpression: `ADD ${entries.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])),
    ExpressionAttributeValues: {
      ...Object.fromEntries(entries.map(([, delta], i) => [`:c${i}`, delta])),
      ...(cap && capped >= 0 ? { ':most': cap.max - capDelta } : {}),
    },
    ...(cap && capped >= 0
      ? { ConditionExpression: `attribute_not_exists(#c${capped}) OR #c${capped} <= :most` }
      : {}),
  };
}

/** One entry per user, deltas summed (a transaction may not touch one item twice). */
export function mergeUserDeltas(list: ReadonlyArray<{ userId: string; deltas: Deltas }>) {
  const byUser = new Map<string, Deltas>();
  for (const { userId, deltas } of list) {
    const acc = byUser.get(userId) ?? {};
    for (const [k, v] of Object.entries(deltas)) acc[k] = (acc[k] ?? 0) + v;
    byUser.set(userId, acc);
  }
  return [...byUser].map(([userId, deltas]) => ({ userId, deltas }));
}

/** A global counter shard chosen at random (lib/db/keys.ts says why). */
const randomGlobalShard = (): ItemKey => globalStatsShardKey(Math.floor(Math.random() * GLOBAL_STATS_SHARDS));

/** Transaction items that ADD the moves (counters that do not exist yet start at zero). */
export function counterItems(moves: CounterMoves, userCap?: CounterCap): TransactItem[] {
  const updates = [
    addUpdate(randomGlobalShard(), moves.global ?? {}),
    ...mergeUserDeltas(moves.users ?? []).map((u) => addUpdate(userStatsKey(u.userId), u.deltas, userCap)),
  ];
  return updates.flatMap((Update) => (Update ? [{ Update }] : []));
}

/** The counter moves of `n` books changing status: books_s<from> -n, books_s<to> +n. */
export const statusCounterDeltas = (from: number, to: number, n = 1): Deltas =>
  from === to ? {} : { [`books_s${from}`]: -n, [`books_s${to}`]: n };

/** A new user: their counters start at zero (kept if present) and totalUsers goes up by one. */
export function newUserCounterItems(userId: string): TransactItem[] {
  return [
    {
      Update: {
        TableName: TABLE,
        Key: userStatsKey(userId),
        UpdateExpression: `SET #type = :type, ${USER_COUNTERS.map((c) => `${c} = if_not_exists(${c}, :zero)`).join(', ')}`,
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': 'userStats', ':zero': 0 },
      },
    },
    ...counterItems({ global: { totalUsers: 1 } }),
  ];
}

/** The item of a user's zeroed counters, for bulk loads (lib/db/seed.ts). */
export const zeroUserStatsItem = (userId: string) => ({
  ...userStatsKey(userId),
  type: 'userStats',
  ...Object.fromEntries(USER_COUNTERS.map((c) => [c, 0])),
});

/** ADD `delta` to one of a user's counters only while it stays below `max` (refused otherwise). */
export function boundedUserCounterItem(
  userId: string,
  counter: string,
  delta: number,
  max: number,
): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: userStatsKey(userId),
      UpdateExpression: 'ADD #c :d',
      ConditionExpression: 'attribute_not_exists(#c) OR #c < :max',
      ExpressionAttributeNames: { '#c': counter },
      ExpressionAttributeValues: { ':d': delta, ':max': max },
    },
  };
}

/** Moves counters outside a transaction (bulk loads only: the data was written before). */
export async function addCounters(moves: CounterMoves): Promise<void> {
  const items = counterItems(moves);
  for (let i = 0; i < items.length; i += 16) {
    await Promise.all(
      items
        .slice(i, i + 16)
        .map((item) =>
          db.send(new UpdateCommand(item.Update as ConstructorParameters<typeof UpdateCommand>[0])),
        ),
    );
  }
}

// ----- reads -----------------------------------------------------------------------------------

/** The service-wide counters, summed over their shards in one BatchGetItem (absent counters are zero). */
export async function getGlobalStats(): Promise<Record<string, number>> {
  const stats: Record<string, number> = {};
  for (const item of await batchGet(globalStatsKeys()))
    for (const [k, v] of Object.entries(item)) if (typeof v === 'number') stats[k] = (stats[k] ?? 0) + v;
  return stats;
}

/** A user's counters; absent ones are 0. */
export async function getUserStats(userId: string): Promise<UserStatsRecord> {
  const out = await db.send(
    new GetCommand({
      TableName: TABLE,
      Key: userStatsKey(userId),
      ProjectionExpression: USER_COUNTERS.join(', '),
    }),
  );
  const item = (out.Item ?? {}) as Partial<UserStatsRecord>;
  return Object.fromEntries(USER_COUNTERS.map((c) => [c, item[c] ?? 0])) as unknown as UserStatsRecord;
}
