import { toApiBook } from '#lib/books/schemas.ts';
import { getBooks, listBooksBoughtBy, listBooksSoldBy } from '#lib/db/books.ts';
import { conversationIdOf, existingConversations } from '#lib/db/conversations.ts';
import { getUserStats } from '#lib/db/counters.ts';
import { listHandoversOfOrder } from '#lib/db/handovers.ts';
import {
  getOrderRecord,
  listOrdersOfBuyer,
  type OrderCancellation,
  orderCancellations,
} from '#lib/db/orders.ts';
import { type BookRecord, BookStatus, isSold, type OrderRecord } from '#lib/db/records.ts';
import { getUserListingInfo } from '#lib/db/users.ts';
import { NotFound } from '#lib/errors.ts';
import type { Page } from '#lib/table/page.ts';
import { toDollars } from '#lib/values/money.ts';
import { bookPictures } from '#lib/values/photos.ts';
import { toApiOrder } from './checkout.ts';
import { toApiHandover } from './handover.ts';
import type {
  HistoryQuery,
  Order,
  OrderStep,
  OrderWithStatus,
  PurchasedBook,
  SoldBook,
  UserStatistics,
} from './schemas.ts';

export const DEFAULT_HISTORY_PAGE = 40;

/**
 * The books of a history page that were bought (status 1, 2 or 3) with the user on their `side`, as
 * the history shows them: a purchase cancelled back to status 0 loses its buyer, and any stale
 * index entry is skipped too.
 */
function boughtBooks(page: Page<BookRecord>, side: 'buyerId' | 'ownerId', userId: string): Page<SoldBook> {
  return {
    items: page.items
      .filter((b) => isSold(b.status) && b[side] === userId)
      .map((b) => ({
        ...toApiBook(b, { showBuyer: true }),
        boughtAt: b.boughtAt ?? null,
        orderId: b.orderId ?? null,
      })),
    next: page.next,
  };
}

/** Books the user bought, newest purchase first. */
export async function getPurchasedBooks(userId: string, query: HistoryQuery): Promise<Page<PurchasedBook>> {
  const page = await listBooksBoughtBy(userId, query.limit ?? DEFAULT_HISTORY_PAGE, query.cursor);
  return boughtBooks(page, 'buyerId', userId);
}

/** The user's books that were bought (status 1, 2 or 3), newest listing first. */
export async function getSoldBooks(userId: string, query: HistoryQuery): Promise<Page<SoldBook>> {
  const page = await listBooksSoldBy(userId, query.limit ?? DEFAULT_HISTORY_PAGE, query.cursor);
  return boughtBooks(page, 'ownerId', userId);
}

/** The caller's orders, newest first. */
export async function getOrders(userId: string, query: HistoryQuery): Promise<Page<Order>> {
  const page = await listOrdersOfBuyer(userId, query.limit ?? DEFAULT_HISTORY_PAGE, query.cursor);
  return { items: page.items.map(toApiOrder), next: page.next };
}

/**
 * An order as its seller sees it: only their books, and what they are paid for them (their books'
 * prices, cancelled ones left out; the fee is the buyer's). Pure.
 */
function sellersPart(order: OrderRecord, sellerId: string): OrderRecord {
  const books = order.books.filter((l) => l.sellerId === sellerId);
  const cancelled = order.cancelledBookIds;
  const paid = books.reduce((sum, l) => sum + (cancelled?.has(l.bookId) ? 0 : l.priceCents), 0);
  return {
    ...order,
    books,
    bookIds: books.map((l) => l.bookId),
    // the totals as `chargedTotals` would compute them for this part alone: nothing left to cancel
    subtotalCents: paid,
    feeCents: 0,
    totalCents: paid,
    cancelledBookIds: new Set(),
  };
}

/**
 * One order with each book's status now and its dated steps, for its buyer (the whole order) or for
 * one of its sellers (their books only, their hand-over, what they are paid, the buyer's first name:
 * so a seller can open the order their notifications link to and propose a hand-over). One GetItem,
 * one BatchGet, the hand-overs Query, and for a seller the buyer's name. Anyone else: 404.
 */
export async function getOrder(userId: string, orderId: string): Promise<OrderWithStatus> {
  const order = await getOrderRecord(orderId);
  const viewer = order?.buyerId === userId ? 'buyer' : order?.sellerIds.includes(userId) ? 'seller' : null;
  if (!order || !viewer) throw new NotFound('No such order.', 'ORDER_NOT_FOUND');
  const part = viewer === 'seller' ? sellersPart(order, userId) : order;
  const api = toApiOrder(part);
  // the other side of each hand-over: for the buyer each seller, for a seller the buyer
  const others = viewer === 'buyer' ? [...new Set(api.books.map((b) => b.owner.id))] : [order.buyerId];
  const talks = others.map((other) => ({ userId: other, id: conversationIdOf(userId, other) }));
  const [books, handovers, buyer, started] = await Promise.all([
    getBooks(part.bookIds),
    listHandoversOfOrder(orderId),
    viewer === 'seller' ? getUserListingInfo(order.buyerId) : null,
    existingConversations(talks.map((t) => t.id)),
  ]);
  const cancellations = orderCancellations(order);
  return {
    ...api,
    viewer,
    buyer: { id: order.buyerId, ...(buyer ? { firstName: buyer.firstName } : {}) },
    books: api.books.map((line) => {
      const book = books.get(line.id);
      return {
        ...line,
        status: book?.status ?? null,
        cancelled: order.cancelledBookIds?.has(line.id) ?? false,
        timeline: timelineOf(order, line.id, book, cancellations.get(line.id)),
        ...bookPictures(line.id, book),
      };
    }),
    handovers: handovers.filter((h) => viewer === 'buyer' || h.sellerId === userId).map(toApiHandover),
    conversations: talks.map((t) => ({ userId: t.userId, conversationId: started.has(t.id) ? t.id : null })),
  };
}

const step = (
  name: OrderStep['step'],
  at: string | null | undefined,
  reason: string | null = null,
): OrderStep => ({
  step: name,
  at: at ?? null,
  reason,
});

/**
 * One book's steps in this order. A cancellation comes from the order's own record (the book forgot
 * the purchase when it was relisted); the other steps from the book, but only while the book is
 * still this order's purchase (a book relisted and bought again belongs to another order's timeline).
 */
function timelineOf(
  order: OrderRecord,
  bookId: string,
  book: BookRecord | undefined,
  cancellation: OrderCancellation | undefined,
): OrderStep[] {
  const steps = [step('bought', order.createdAt)];
  if (cancellation) {
    if (cancellation.verifiedAt) steps.push(step('verified', cancellation.verifiedAt));
    steps.push(step('cancelled', cancellation.at, cancellation.reason));
    return steps;
  }
  // cancelled before cancellations were dated
  if (order.cancelledBookIds?.has(bookId)) return [...steps, step('cancelled', null)];
  if (!book || book.orderId !== order.id) return steps;
  if (book.status >= BookStatus.Verified && book.status <= BookStatus.Paid) {
    steps.push(step('verified', book.verifiedAt));
  }
  if (book.status === BookStatus.Paid) steps.push(step('delivered', book.deliveredAt));
  return steps;
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
