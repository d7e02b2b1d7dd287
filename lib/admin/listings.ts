/**
 * What an admin needs to hand books over: books of one status and orders, each with the seller's
 * and buyer's contact details. One index Query per page plus BatchGets of the users (and, for
 * orders, of their books) for the whole page: a fixed number of calls whatever the page holds.
 */
import { toApiBook } from '../books/schemas.ts';
import { getBooksById, getUsersById, listBooksByStatus, listOrders } from '../db/admin.ts';
import type { UserRecord } from '../db/records.ts';
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
  const books = page.items.map((b) => ({
    book: toApiBook(b, { showBuyer: true }),
    owner: contactOf(users, b.ownerId),
    buyer: contactOf(users, b.buyerId),
  }));
  return { books, next: page.next };
}

/** The order status getOrders lists when none is asked for (the status checkout writes). */
export const DEFAULT_ORDER_STATUS = 'placed';

/**
 * The stored order as the cart area writes it (`ORDER#<id>`): buyerId, the ids of its books
 * (`bookIds`, or `books` as ids or objects with `id`), money in cents (subtotal, fee, total),
 * status, createdAt, and `cancelledBookIds` once an admin cancels one of its books.
 */
export function readOrder(item: Record<string, unknown>) {
  const rawBooks = Array.isArray(item.bookIds) ? item.bookIds : Array.isArray(item.books) ? item.books : [];
  const bookIds = rawBooks
    .map((b) =>
      typeof b === 'string' ? b : typeof b === 'object' && b !== null ? (b as { id?: unknown }).id : null,
    )
    .filter((b): b is string => typeof b === 'string');
  const cancelled = item.cancelledBookIds instanceof Set ? [...item.cancelledBookIds].map(String) : [];
  const cents = (v: unknown) => (typeof v === 'number' ? v : 0);
  return {
    id: String(item.id),
    buyerId: typeof item.buyerId === 'string' ? item.buyerId : null,
    bookIds,
    cancelledBookIds: new Set(cancelled),
    subtotalCents: cents(item.subtotal),
    feeCents: cents(item.fee),
    totalCents: cents(item.total),
    status: String(item.status),
    createdAt: String(item.createdAt),
  };
}

export async function getOrders(status: string | undefined, limit: number, cursor: string | undefined) {
  const page = await listOrders(status ?? DEFAULT_ORDER_STATUS, limit, cursor);
  const orders = page.items.map(readOrder);
  const books = await getBooksById(orders.flatMap((o) => o.bookIds));
  const userIds = [
    ...orders.flatMap((o) => (o.buyerId ? [o.buyerId] : [])),
    ...[...books.values()].map((b) => b.ownerId),
  ];
  const users = userIds.length ? await getUsersById(userIds) : new Map<string, UserRecord>();
  const result: AdminOrder[] = orders.map((o) => ({
    id: o.id,
    status: o.status,
    createdAt: o.createdAt,
    subtotal: toDollars(o.subtotalCents),
    fee: toDollars(o.feeCents),
    total: toDollars(o.totalCents),
    buyer: contactOf(users, o.buyerId),
    books: o.bookIds.map((id) => {
      const b = books.get(id);
      return {
        id,
        name: b?.name ?? null,
        price: b?.price ?? null,
        status: b?.status ?? null,
        cancelled: o.cancelledBookIds.has(id),
        owner: contactOf(users, b?.ownerId),
      };
    }),
  }));
  return { orders: result, next: page.next };
}
