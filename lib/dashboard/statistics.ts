/**
 * The dashboard's statistics: the totals, read from the counters that every change moves in its
 * own transaction (one BatchGetItem of their shards), and the weekly figures of a campus or of
 * every campus, kept by the stream consumer (one Query, lib/dashboard/weekly-stats.ts); never
 * computed by reading the books or orders.
 */
import { getGlobalStats } from '#lib/db/counters.ts';
import { ALL_CAMPUSES } from '#lib/db/keys.ts';
import { toDollars } from './rules.ts';
import type { Statistics } from './schemas.ts';
import { weeklyStatistics } from './weekly-stats.ts';

export async function getStatistics(
  query: { weeks: number; campus: string } = { weeks: 12, campus: ALL_CAMPUSES },
): Promise<Statistics> {
  const [s, weekly] = await Promise.all([getGlobalStats(), weeklyStatistics(query.weeks, query.campus)]);
  const n = (name: string) => s[name] ?? 0;
  return {
    totalUsers: n('totalUsers'),
    totalBooks: n('totalBooks'),
    booksByStatus: {
      '0': n('books_s0'),
      '1': n('books_s1'),
      '2': n('books_s2'),
      '3': n('books_s3'),
      '5': n('books_s5'),
    },
    totalOrders: n('totalOrders'),
    grossSales: toDollars(n('grossSales')),
    feesEarned: toDollars(n('feesEarned')),
    campus: query.campus,
    weekly,
  };
}
