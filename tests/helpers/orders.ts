/**
 * Order factory for the dashboard: what checkoutCart leaves behind (the cart area's OrderRecord
 * shape), written directly: the order (`ORDER#<id>`, gsi1 `ORDERS#1`) and its books at status 1
 * with buyer, purchase time and order id. No counters. Switch to the real checkout after merging.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { db, TABLE } from '../../lib/db/client.ts';
import { bookIndexes, bookKey, orderKey, ordersByStatusPk, timeSortKey } from '../../lib/db/keys.ts';
import type { BookRecord } from '../../lib/db/records.ts';
import { makeBookRecord } from './books.ts';

export interface SeededOrder {
  id: string;
  buyerId: string;
  books: BookRecord[];
  createdAt: string;
}

const cents = (dollars: number) => Math.round(dollars * 100);

/** One order by `buyerId` of new books of the given sellers (prices in dollars). */
export async function seedOrder(
  buyerId: string,
  lines: Array<{ sellerId: string; price?: number; status?: 1 | 2 | 3 }>,
): Promise<SeededOrder> {
  const id = ulid();
  const createdAt = new Date().toISOString();
  const books = lines.map((l) => ({
    ...makeBookRecord(l.sellerId, { price: l.price ?? 30 }),
    status: l.status ?? 1,
    buyerId,
    boughtAt: createdAt,
    orderId: id,
  }));
  for (const b of books) {
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...bookKey(b.id), ...bookIndexes(b), ...b } }));
  }
  const subtotalCents = books.reduce((s, b) => s + cents(b.price), 0);
  const feeCents = Math.round(subtotalCents * 0.05);
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: {
        ...orderKey(id),
        gsi1pk: ordersByStatusPk(1),
        gsi1sk: timeSortKey(createdAt, id),
        type: 'order',
        id,
        buyerId,
        books: books.map((b) => ({
          bookId: b.id,
          name: b.name,
          edition: b.edition,
          course: b.course,
          ISBN: b.ISBN,
          condition: b.condition,
          priceCents: cents(b.price),
          sellerId: b.ownerId,
          sellerFirstName: b.ownerFirstName,
        })),
        bookIds: books.map((b) => b.id),
        sellerIds: [...new Set(books.map((b) => b.ownerId))],
        subtotalCents,
        feeCents,
        totalCents: subtotalCents + feeCents,
        status: 1,
        createdAt,
      },
    }),
  );
  return { id, buyerId, books, createdAt };
}
