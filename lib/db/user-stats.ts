/**
 * A user's counters (USER#<id> / STATS), moved with ADD inside the transactions that change what
 * they count (checkout: booksBought, booksSold, activeListings; postBook and friends:
 * activeListings; requests: openRequests; setBookPaid: moneyMade). Read with one GetItem.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.ts';
import { userStatsKey } from './keys.ts';

export interface UserStatsRecord {
  booksBought: number;
  booksSold: number;
  /** integer cents, from books at status 3 only */
  moneyMade: number;
  activeListings: number;
  openRequests: number;
}

/** The user's counters; absent ones are 0. */
export async function getUserStatsRecord(userId: string): Promise<UserStatsRecord> {
  const out = await db.send(
    new GetCommand({
      TableName: TABLE,
      Key: userStatsKey(userId),
      ProjectionExpression: 'booksBought, booksSold, moneyMade, activeListings, openRequests',
    }),
  );
  const item = (out.Item ?? {}) as Partial<Record<keyof UserStatsRecord, number>>;
  return {
    booksBought: item.booksBought ?? 0,
    booksSold: item.booksSold ?? 0,
    moneyMade: item.moneyMade ?? 0,
    activeListings: item.activeListings ?? 0,
    openRequests: item.openRequests ?? 0,
  };
}
