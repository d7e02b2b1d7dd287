/**
 * The weekly counters: per scope (a campus, or `all`) and ISO week, WEEKLY_STATS_SHARDS items
 * `STATS#W#<scope>` / `<week>#<shard>` (lib/db/keys.ts `weeklyStatsKey`, summed on read), holding orders, grossSales and feesEarned (integer
 * cents) and newListings, moved with ADD by the stream consumer (lib/dashboard/weekly-stats.ts).
 *
 * Each thing counted is a fact with a deterministic id (`listing#<bookId>`, `sale#<order>#<book>`,
 * ...). Counting a fact is one transaction: a marker `STATSCOUNTED#<fact>` put only if absent, and
 * the ADDs. A fact counted before (a redelivered or replayed stream record) is refused by its
 * marker and adds nothing, so nothing counts twice.
 */
import { db, TABLE } from '#lib/table/client.ts';
import { QueryCommand } from '#lib/table/commands.ts';
import type { ConflictRetryPolicy } from '#lib/table/conflict-retry.ts';
import { type Tagged, tag, transactWrite } from '#lib/table/transact.ts';
import { expiresAfter } from '#lib/values/expiry.ts';
import {
  WEEKLY_STATS_SHARDS,
  weeklyStatsCountedKey,
  weeklyStatsKey,
  weeklyStatsPk,
  weeklyStatsRange,
} from './keys.ts';

export const WEEKLY_COUNTERS = ['orders', 'grossSales', 'feesEarned', 'newListings'] as const;
export type WeeklyCounter = (typeof WEEKLY_COUNTERS)[number];
export type WeeklyCounts = Record<WeeklyCounter, number>;

/** One thing to count once: its id, and what it adds to which (scope, week) items. */
export interface WeeklyFact {
  id: string;
  moves: ReadonlyArray<{ scope: string; week: string; deltas: Partial<WeeklyCounts> }>;
}

/**
 * How long a marker is kept: past the stream's own retention (24 h of retries) and the kept stream
 * failures (30 days) that scripts/replay-stream-failures.ts may replay.
 */
const COUNTED_KEEP_SECONDS = 40 * 86_400;

/**
 * Off the request path, a lost race is worth more retries than a request's (CONFLICT_RETRY): up to
 * 6 after 20 ms .. 640 ms (plus jitter); past them the record fails and the stream retries it.
 */
const WEEKLY_RETRY: ConflictRetryPolicy = { retries: 6, baseDelayMs: 20, jitterMs: 40 };

/** The Monday (UTC) of the ISO week of an ISO-8601 time, `YYYY-MM-DD`. Pure. */
export function isoWeekStart(at: string | Date): string {
  const d = new Date(at);
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}

/** The Monday `n` weeks after (negative: before) the Monday `week`. Pure. */
export function addWeeks(week: string, n: number): string {
  const d = new Date(`${week}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + 7 * n);
  return d.toISOString().slice(0, 10);
}

function transactionOf(facts: readonly WeeklyFact[], markerTtl: number, shard: number): Tagged[] {
  const sums = new Map<string, { scope: string; week: string; deltas: Partial<WeeklyCounts> }>();
  for (const fact of facts)
    for (const m of fact.moves) {
      const k = `${m.scope}\n${m.week}`;
      const acc = sums.get(k) ?? { scope: m.scope, week: m.week, deltas: {} };
      for (const [c, v] of Object.entries(m.deltas) as [WeeklyCounter, number][])
        acc.deltas[c] = (acc.deltas[c] ?? 0) + v;
      sums.set(k, acc);
    }
  const markers = facts.map((f) =>
    tag(`counted:${f.id}`, {
      Put: {
        TableName: TABLE,
        Item: {
          ...weeklyStatsCountedKey(f.id),
          type: 'weeklyStatsCounted',
          ttl: markerTtl,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }),
  );
  const counters = [...sums.values()].flatMap(({ scope, week, deltas }) => {
    const entries = Object.entries(deltas).filter(([, v]) => v !== 0);
    if (entries.length === 0) return [];
    return [
      tag('counters', {
        Update: {
          TableName: TABLE,
          Key: weeklyStatsKey(scope, week, shard),
          UpdateExpression: `SET #type = :type, #scope = :scope, #week = :week ADD ${entries.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
          ExpressionAttributeNames: {
            '#type': 'type',
            '#scope': 'scope',
            '#week': 'week',
            ...Object.fromEntries(entries.map(([c], i) => [`#c${i}`, c])),
          },
          ExpressionAttributeValues: {
            ':type': 'weeklyStats',
            ':scope': scope,
            ':week': week,
            ...Object.fromEntries(entries.map(([, v], i) => [`:c${i}`, v])),
          },
        },
      }),
    ];
  });
  return [...markers, ...counters];
}

/**
 * Counts each fact not counted before, in one transaction with their markers; a fact whose marker
 * is there already is left out and the rest written again (at most one more transaction per fact).
 * The ids of the facts it counted now.
 */
export async function countWeeklyFacts(facts: readonly WeeklyFact[], now = new Date()): Promise<string[]> {
  let left = [...facts];
  const markerTtl = expiresAfter(now, COUNTED_KEEP_SECONDS);
  while (left.length > 0) {
    const shard = Math.floor(Math.random() * WEEKLY_STATS_SHARDS);
    const outcome = await transactWrite(transactionOf(left, markerTtl, shard), { retry: WEEKLY_RETRY });
    if (outcome.ok) return left.map((f) => f.id);
    const counted = new Set(
      outcome.refused
        .filter((r) => r.tag.startsWith('counted:') && r.code === 'ConditionalCheckFailed')
        .map((r) => r.tag.slice('counted:'.length)),
    );
    if (counted.size === 0) throw new Error(`weekly counters refused: ${JSON.stringify(outcome.refused)}`);
    left = left.filter((f) => !counted.has(f.id));
  }
  return [];
}

/**
 * The counters of `scope` for the weeks from `first` to `last` (Mondays, inclusive), oldest
 * first, each summed over its parts; a week nothing was counted in has no item and is left out.
 * One Query of at most `maxWeeks` x WEEKLY_STATS_SHARDS items (a few KB).
 */
export async function readWeeks(
  scope: string,
  first: string,
  last: string,
  maxWeeks: number,
): Promise<Array<{ week: string } & WeeklyCounts>> {
  const range = weeklyStatsRange(first, last);
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': weeklyStatsPk(scope), ':from': range.from, ':to': range.to },
      Limit: maxWeeks * WEEKLY_STATS_SHARDS,
    }),
  );
  const weeks = new Map<string, { week: string } & WeeklyCounts>();
  for (const item of out.Items ?? []) {
    const week = String(item.week);
    const acc = weeks.get(week) ?? { week, orders: 0, grossSales: 0, feesEarned: 0, newListings: 0 };
    for (const c of WEEKLY_COUNTERS) if (typeof item[c] === 'number') acc[c] += item[c];
    weeks.set(week, acc);
  }
  return [...weeks.values()];
}
