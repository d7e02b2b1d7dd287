/**
 * Purchase history: the books a user bought and the user's books that were bought, each with its
 * current status (1 bought, 2 verified, 3 delivered and paid). Unlisted books are never "sold".
 */
import { z } from 'zod';
import { toApiBook } from '#lib/books/schemas.ts';
import { booksByIds } from '#lib/db/books.ts';
import { getUserStats } from '#lib/db/counters.ts';
import { decodeCursor, encodeCursor } from '#lib/db/cursor.ts';
import { booksOfBuyerPk, booksOfOwnerPk, ordersOfBuyerPk } from '#lib/db/keys.ts';
import { getOrderRecord, queryBooksOfBuyer, queryBooksSoldBy, queryOrdersOfBuyer } from '#lib/db/orders.ts';
import { type BookRecord, BookStatus } from '#lib/db/records.ts';
import { NotFound } from '#lib/errors.ts';
import { toApiOrder } from './checkout.ts';
import { toDollars } from './pricing.ts';
import type {
  HistoryQuery,
  Order,
  OrderWithStatus,
  PurchasedBook,
  SoldBook,
  UserStatistics,
} from './schemas.ts';

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

/** The caller's orders, newest first. */
export async function getOrders(userId: string, query: HistoryQuery): Promise<Page<Order>> {
  const scope = `orders:${ordersOfBuyerPk(userId)}`;
  const after = query.cursor === undefined ? undefined : decodeCursor(scope, query.cursor, Position);
  const page = await queryOrdersOfBuyer(userId, query.limit ?? DEFAULT_HISTORY_PAGE, after);
  return {
    items: page.items.map(toApiOrder),
    next: page.next === null ? null : encodeCursor(scope, page.next),
  };
}

/** One of the caller's orders with each book's status now (one GetItem, one BatchGet); anyone else's: 404. */
export async function getOrder(userId: string, orderId: string): Promise<OrderWithStatus> {
  const order = await getOrderRecord(orderId);
  if (!order || order.buyerId !== userId) throw new NotFound('No such order.', 'ORDER_NOT_FOUND');
  const books = await booksByIds(order.bookIds);
  const api = toApiOrder(order);
  return {
    ...api,
    books: api.books.map((line) => ({
      ...line,
      status: books.get(line.id)?.status ?? null,
      cancelled: order.cancelledBookIds?.has(line.id) ?? false,
    })),
  };
}

/** The user's counters (kept by the transactions that change them; no scan, one read). */
export async function getUserStatistics(userId: string): Promise<UserStatistics> {
  const s = await getUserStats(userId);
  return {
    numberOfBooksBought: s.booksBought,
    numberOfBooksSold: s.booksSold,
    moneyMade: toDollars(s.moneyMade),
    activeListings: s.activeListings,
    openRequests: s.openRequests,
  };
}
