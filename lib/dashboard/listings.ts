/**
 * What an admin needs to hand books over: books of one status and orders, each with the seller's
 * and buyer's contact details. One index Query per page plus BatchGets of the users (and, for
 * orders, of their books) for the whole page: a fixed number of calls whatever the page holds.
 */
import { toApiBook } from '#lib/books/schemas.ts';
import { getBooks, listBooksByStatus } from '#lib/db/books.ts';
import { conversationIdOf } from '#lib/db/conversations.ts';
import { getHandovers, listAgreedHandovers } from '#lib/db/handovers.ts';
import { listOrders } from '#lib/db/orders.ts';
import { type OrderRecord, OrderStatus, stillInOrder, type UserRecord } from '#lib/db/records.ts';
import { getUsersById } from '#lib/db/users.ts';
import { toApiHandover } from '#lib/orders/handover.ts';
import { chargedInDollars } from '#lib/orders/totals.ts';
import { toDollars } from './rules.ts';
import { type AdminHandover, type AdminOrder, type Contact, toContact } from './schemas.ts';

const contactOf = (users: Map<string, UserRecord>, id: string | null | undefined): Contact | null => {
  const u = id ? users.get(id) : undefined;
  return u ? toContact(u) : null;
};

const DAY_MS = 24 * 3600 * 1000;

export async function getBooksWithStatus(
  status: number,
  limit: number,
  cursor: string | undefined,
  now = new Date(),
) {
  const page = await listBooksByStatus(status, limit, cursor);
  const userIds = page.items.flatMap((b) => (b.buyerId ? [b.ownerId, b.buyerId] : [b.ownerId]));
  const [users, handovers] = await Promise.all([
    userIds.length ? getUsersById(userIds) : new Map<string, UserRecord>(),
    getHandovers(page.items.flatMap((b) => (b.orderId ? [{ orderId: b.orderId, sellerId: b.ownerId }] : []))),
  ]);
  const items = page.items.map((b) => {
    const h = b.orderId ? handovers.get(`${b.orderId}_${b.ownerId}`) : undefined;
    return {
      book: toApiBook(b, { showBuyer: true }),
      owner: contactOf(users, b.ownerId),
      buyer: contactOf(users, b.buyerId),
      boughtAt: b.boughtAt ?? null,
      ageDays: b.boughtAt ? Math.floor((now.getTime() - Date.parse(b.boughtAt)) / DAY_MS) : null,
      remindedAt: b.stuckRemindedAt ?? null,
      handover: h && h.state !== 'declined' ? toApiHandover(h) : null,
      // the pair's one conversation: its id is computed from the two ids, nothing is read for it
      conversationId: b.buyerId ? conversationIdOf(b.ownerId, b.buyerId) : null,
    };
  });
  return { items, next: page.next };
}

/** The order status getOrders lists when none is asked for: placed at checkout. */
export const DEFAULT_ORDER_STATUS: number = OrderStatus.Placed;

export async function getOrders(status: number | undefined, limit: number, cursor: string | undefined) {
  const page = await listOrders(status ?? DEFAULT_ORDER_STATUS, limit, cursor);
  const orders = page.items.filter((o) => o.type === 'order') as unknown as OrderRecord[];
  const userIds = orders.flatMap((o) => [o.buyerId, ...o.books.map((l) => l.sellerId)]);
  const [books, users] = await Promise.all([
    getBooks(orders.flatMap((o) => o.books.map((l) => l.bookId))),
    getUsersById(userIds),
  ]);
  const result: AdminOrder[] = orders.map((o) => ({
    id: o.id,
    status: o.status,
    createdAt: o.createdAt,
    // what it charges now: a cancelled book is never in a total (lib/orders/totals.ts)
    ...chargedInDollars(o),
    buyer: contactOf(users, o.buyerId),
    books: o.books.map((line) => ({
      id: line.bookId,
      name: line.name,
      price: toDollars(line.priceCents),
      status: books.get(line.bookId)?.status ?? null,
      cancelled: o.cancelledBookIds?.has(line.bookId) ?? false,
      owner: contactOf(users, line.sellerId),
    })),
  }));
  return { items: result, next: page.next };
}

/**
 * The agreed hand-overs of one day (the slot's date at its point), earliest first, of every point
 * or of one, with buyer and seller contacts and the books: one index Query a page, then one
 * BatchGet of the users and one of the books.
 */
export async function getHandoversOfDay(
  query: {
    day?: string | undefined;
    pointId?: string | undefined;
    limit: number;
    cursor?: string | undefined;
  },
  now = new Date(),
) {
  const day = query.day ?? now.toISOString().slice(0, 10);
  const page = await listAgreedHandovers(day, query.pointId, query.limit, query.cursor);
  const [users, books] = await Promise.all([
    getUsersById(page.items.flatMap((h) => [h.buyerId, h.sellerId])),
    getBooks(page.items.flatMap((h) => h.bookIds)),
  ]);
  const items: AdminHandover[] = page.items.map((h) => ({
    handover: toApiHandover(h),
    conversationId: conversationIdOf(h.buyerId, h.sellerId),
    buyer: contactOf(users, h.buyerId),
    seller: contactOf(users, h.sellerId),
    books: h.bookIds.map((id) => ({
      id,
      name: books.get(id)?.name ?? '',
      status: books.get(id)?.status ?? null,
      cancelled: !stillInOrder(books.get(id), h.orderId),
    })),
  }));
  return { items, next: page.next };
}
