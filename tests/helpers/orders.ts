/**
 * Order factory for the dashboard: what checkoutCart leaves behind (the cart area's OrderRecord
 * shape), written directly: the order (built by checkout's own buildOrder) and its books at status 1
 * with buyer, purchase time and order id. No counters, for seeding orders in statuses 2 and 3.
 */

import { ulid } from 'ulid';
import { bookIndexes, bookKey, orderIndexes, orderKey } from '#lib/db/keys.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { buildOrder } from '#lib/orders/checkout.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { PutCommand } from '#lib/table/commands.ts';
import { toCents } from '#lib/values/money.ts';
import { makeBookRecord } from './books.ts';

export interface SeededOrder {
  id: string;
  buyerId: string;
  books: BookRecord[];
  createdAt: string;
}

/** One order by `buyerId` of new books of the given sellers (prices in dollars). */
export async function seedOrder(
  buyerId: string,
  /**
   * `name`: a title of its own, for a test that finds the book by it among other tests' books;
   * `coverUrl`: the cover an ISBN lookup gave it
   */
  lines: Array<{ sellerId: string; price?: number; status?: 1 | 2 | 3; name?: string; coverUrl?: string }>,
): Promise<SeededOrder> {
  const id = ulid();
  const createdAt = new Date().toISOString();
  const books = lines.map((l) => ({
    ...makeBookRecord(l.sellerId, {
      priceCents: toCents(l.price ?? 30),
      ...(l.name ? { name: l.name } : {}),
      ...(l.coverUrl ? { coverUrl: l.coverUrl } : {}),
    }),
    status: l.status ?? 1,
    buyerId,
    boughtAt: createdAt,
    orderId: id,
  }));
  for (const b of books) {
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...bookKey(b.id), ...bookIndexes(b), ...b } }));
  }
  const order = buildOrder(buyerId, books, { id, createdAt });
  await db.send(
    new PutCommand({ TableName: TABLE, Item: { ...orderKey(id), ...orderIndexes(order), ...order } }),
  );
  return { id, buyerId, books, createdAt };
}
