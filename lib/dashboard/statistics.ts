/**
 * The dashboard's statistics: read from the counters that every change moves in its own
 * transaction (one GetItem), never computed by reading the books or orders.
 */
import { getGlobalStats } from '#lib/db/counters.ts';
import { toDollars } from './rules.ts';
import type { Statistics } from './schemas.ts';

export async function getStatistics(): Promise<Statistics> {
  const s = await getGlobalStats();
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
  };
}
