/**
 * Purchase history: the books a user bought and the user's books that were bought, each with its
 * current status (1 bought, 2 verified, 3 delivered and paid). Unlisted books are never "sold".
 */
import { z } from 'zod';
import { toApiBook } from '#lib/books/schemas.ts';
import { decodeCursor, encodeCursor } from '#lib/db/cursor.ts';
import { booksOfBuyerPk, booksOfOwnerPk } from '#lib/db/keys.ts';
import { queryBooksOfBuyer, queryBooksSoldBy } from '#lib/db/orders.ts';
import { type BookRecord, BookStatus } from '#lib/db/records.ts';
import { getUserStatsRecord } from '#lib/db/user-stats.ts';
import { toDollars } from './pricing.ts';
import type { HistoryQuery, PurchasedBook, SoldBook, UserStatistics } from './schemas.ts';

export const DEFAULT_HISTORY_PAGE = 40;

/** A cursor's position: the index sort key `<ISO date>#<bookId>` of the last book shown. */
const Position = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z#[A-Za-z0-9_-]{1,64}$/);

const BOUGHT_STATUSES: ReadonlySet<number> = new Set([
  BookStatus.Bought,
  BookStatus.Verified,
  BookStatus.Paid,
]);

export interface Page<T> {
  items: T[];
  next: string | null;
}

/** Books the user bought, newest purchase first. */
export async function getPurchasedBooks(userId: string, query: HistoryQuery): Promise<Page<PurchasedBook>> {
  const scope = `purchasedBooks:${booksOfBuyerPk(userId)}`;
  const after = query.cursor === undefined ? undefined : decodeCursor(scope, query.cursor, Position);
  const page = await queryBooksOfBuyer(userId, query.limit ?? DEFAULT_HISTORY_PAGE, after);
  return {
    // A purchase cancelled back to status 0 loses its buyer; skip any stale index entry too.
    items: page.items
      .filter((b) => BOUGHT_STATUSES.has(b.status) && b.buyerId === userId)
      .map((b) => ({
        ...toApiBook(b, { showBuyer: true }),
        boughtAt: b.boughtAt ?? null,
        orderId: b.orderId ?? null,
      })),
    next: page.next === null ? null : encodeCursor(scope, page.next),
  };
}

/** The user's books that were bought (status 1, 2 or 3), newest listing first. */
export async function getSoldBooks(userId: string, query: HistoryQuery): Promise<Page<SoldBook>> {
  const scope = `soldBooks:${booksOfOwnerPk(userId)}`;
  const after = query.cursor === undefined ? undefined : decodeCursor(scope, query.cursor, Position);
  const page = await queryBooksSoldBy(userId, query.limit ?? DEFAULT_HISTORY_PAGE, after);
  return {
    items: page.items
      .filter((b: BookRecord) => BOUGHT_STATUSES.has(b.status) && b.ownerId === userId)
      .map((b) => ({ ...toApiBook(b, { showBuyer: true }), boughtAt: b.boughtAt ?? null })),
    next: page.next === null ? null : encodeCursor(scope, page.next),
  };
}

/** The user's counters (kept by the transactions that change them; no scan, one read). */
export async function getUserStatistics(userId: string): Promise<UserStatistics> {
  const s = await getUserStatsRecord(userId);
  return {
    numberOfBooksBought: s.booksBought,
    numberOfBooksSold: s.booksSold,
    moneyMade: toDollars(s.moneyMade),
    activeListings: s.activeListings,
    openRequests: s.openRequests,
  };
}
