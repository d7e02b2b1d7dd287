/**
 * Statistics over time: per ISO week (Monday start, UTC), per campus and for every campus (`all`),
 * the orders placed, their gross and fees (integer cents) and the new listings, kept by the stream
 * consumer from book records (lib/db/weekly-stats.ts, one item per scope and week) and read by
 * getStatistics with one Query.
 *
 * The same meaning as the totals (docs/design.md, lib/db/orders.ts and lib/db/books.ts): an order,
 * its gross (the books' prices) and its fees count in the week it was placed (checkout); a
 * cancelled purchase takes its book's price and fee share off that same week's gross and fees, and
 * the order stays counted. A week's `all` figures therefore add up to the totals. A campus counts
 * the books its sellers sold and an order once if it holds any of them (so an order with books of
 * two campuses counts at both). A new listing is a book stored for the first time, in the week of
 * its listing date. Books without a campus count in `all` only.
 */
import { ALL_CAMPUSES, isBookKey } from '#lib/db/keys.ts';
import {
  addWeeks,
  countWeeklyFacts,
  isoWeekStart,
  readWeeks,
  WEEKLY_COUNTERS,
  type WeeklyCounts,
  type WeeklyFact,
} from '#lib/db/weekly-stats.ts';
import type { ChangeProcessor, Item, StreamChange } from '#lib/streams/types.ts';
import { feeShareCents, toDollars } from './rules.ts';

const campusOf = (book: Item | undefined): string | null =>
  typeof book?.campus === 'string' && book.campus !== '' ? book.campus : null;

/** `all`, and the book's campus when it has one. */
const scopesOf = (campus: string | null): string[] => (campus ? [ALL_CAMPUSES, campus] : [ALL_CAMPUSES]);

/** The book's price and fee share (cents): the share checkout stored, else 5 % of the price. */
function money(book: Item): { grossSales: number; feesEarned: number } {
  const price = typeof book.priceCents === 'number' ? book.priceCents : 0;
  return {
    grossSales: price,
    feesEarned: typeof book.feeCents === 'number' ? book.feeCents : feeShareCents(price),
  };
}

const isTime = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v));

/** What a book record adds to the weekly counters, each fact with its id. Pure. */
export function weeklyFactsOf(
  change: Pick<StreamChange, 'eventName' | 'keys' | 'oldImage' | 'newImage'>,
): WeeklyFact[] {
  // a book removed for good takes nothing back (a listed or unlisted book has no purchase to undo)
  if (!isBookKey(change.keys) || change.eventName === 'REMOVE') return [];
  const before = change.oldImage;
  const after = change.newImage;
  const campus = campusOf(after) ?? campusOf(before);
  const facts: WeeklyFact[] = [];
  if (change.eventName === 'INSERT' && after && isTime(after.date)) {
    const week = isoWeekStart(after.date);
    facts.push({
      id: `listing#${after.id}`,
      moves: scopesOf(campus).map((scope) => ({ scope, week, deltas: { newListings: 1 } })),
    });
  }
  // bought: the book has an order it did not have
  if (
    after &&
    typeof after.orderId === 'string' &&
    after.orderId !== before?.orderId &&
    isTime(after.boughtAt)
  ) {
    const week = isoWeekStart(after.boughtAt);
    const order = after.orderId;
    facts.push({
      id: `sale#${order}#${after.id}`,
      moves: scopesOf(campus).map((scope) => ({ scope, week, deltas: money(after) })),
    });
    // the order once overall and once per campus, whichever of its books comes first
    for (const scope of scopesOf(campus))
      facts.push({
        id: scope === ALL_CAMPUSES ? `order#${order}` : `order#${order}#${scope}`,
        moves: [{ scope, week, deltas: { orders: 1 } }],
      });
  }
  // cancelled: the book lost the order it had; its money leaves the week it was bought in
  if (
    before &&
    typeof before.orderId === 'string' &&
    after?.orderId !== before.orderId &&
    isTime(before.boughtAt)
  ) {
    const week = isoWeekStart(before.boughtAt);
    const { grossSales, feesEarned } = money(before);
    facts.push({
      id: `cancel#${before.orderId}#${before.id}`,
      moves: scopesOf(campus).map((scope) => ({
        scope,
        week,
        deltas: { grossSales: -grossSales, feesEarned: -feesEarned },
      })),
    });
  }
  return facts;
}

export const weeklyStatsProcessor: ChangeProcessor = {
  name: 'weeklyStats',
  wants: (c) => weeklyFactsOf(c).length > 0,
  apply: async (c) => {
    await countWeeklyFacts(weeklyFactsOf(c));
  },
};

export interface WeekStatistics {
  /** the week's Monday, YYYY-MM-DD (UTC) */
  week: string;
  orders: number;
  /** dollars, as the totals */
  grossSales: number;
  feesEarned: number;
  newListings: number;
}

const ZERO: WeeklyCounts = Object.fromEntries(WEEKLY_COUNTERS.map((c) => [c, 0])) as WeeklyCounts;

/**
 * The last `weeks` weeks (the current one last) of a campus or of every campus, oldest first, a
 * week without activity as zeros. One Query of at most `weeks` items.
 */
export async function weeklyStatistics(
  weeks: number,
  scope: string,
  now = new Date(),
): Promise<WeekStatistics[]> {
  const last = isoWeekStart(now);
  const first = addWeeks(last, -(weeks - 1));
  const stored = new Map((await readWeeks(scope, first, last, weeks)).map((w) => [w.week, w]));
  return Array.from({ length: weeks }, (_, i) => {
    const week = addWeeks(first, i);
    const c = stored.get(week) ?? { ...ZERO, week };
    return {
      week,
      orders: c.orders,
      grossSales: toDollars(c.grossSales),
      feesEarned: toDollars(c.feesEarned),
      newListings: c.newListings,
    };
  });
}
