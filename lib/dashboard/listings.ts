/**
 * What an admin needs to hand books over: books of one status and orders, each with the seller's
 * and buyer's contact details. One index Query per page plus BatchGets of the users (and, for
 * orders, of their books) for the whole page: a fixed number of calls whatever the page holds.
 */
import { toApiBook } from '#lib/books/schemas.ts';
import { getBooks, listBooksByStatus } from '#lib/db/books.ts';
import { listOrders } from '#lib/db/orders.ts';
import { type OrderRecord, OrderStatus, type UserRecord } from '#lib/db/records.ts';
import { getUsersById } from '#lib/db/users.ts';
import { toDollars } from './rules.ts';
import { type AdminOrder, type Contact, toContact } from './schemas.ts';

const contactOf = (users: Map<string, UserRecord>, id: string | null | undefined): Contact | null => {
  const u = id ? users.get(id) : undefined;
  return u ? toContact(u) : null;
};

export async function getBooksWithStatus(status: number, limit: number, cursor: string | undefined) {
  const page = await listBooksByStatus(status, limit, cursor);
  const userIds = page.items.flatMap((b) => (b.buyerId ? [b.ownerId, b.buyerId] : [b.ownerId]));
  const users = userIds.length ? await getUsersById(userIds) : new Map<string, UserRecord>();
  const items = page.items.map((b) => ({
    book: toApiBook(b, { showBuyer: true }),
    boughtAt: b.boughtAt ?? null,
    owner: contactOf(users, b.ownerId),
    buyer: contactOf(users, b.buyerId),
  }));
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
    subtotal: toDollars(o.subtotalCents),
    fee: toDollars(o.feeCents),
    total: toDollars(o.totalCents),
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
