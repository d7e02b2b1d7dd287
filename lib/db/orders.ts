/**
 * Orders repository: the checkout transaction, orders, Idempotency-Key records, and the books a
 * user bought or sold (read through the book indexes).
 */

import { Busy } from '#lib/errors.ts';
import { TABLE } from '#lib/table/client.ts';
import { NO_RETRY } from '#lib/table/conflict-retry.ts';
import { getItem } from '#lib/table/items.ts';
import {
  DatedPosition,
  type Item,
  indexPageAfter,
  type Page,
  pagedList,
  queryGsi1Page,
  stripKeys,
} from '#lib/table/page.ts';
import { type Tagged, type TransactItem, tag, transactWrite } from '#lib/table/transact.ts';
import { cartCountMove } from './cart.ts';
import { counterItems, statusCounterDeltas } from './counters.ts';
import {
  bookIndexes,
  bookKey,
  cartItemKey,
  idempotencyKey,
  orderIndexes,
  orderKey,
  ordersByStatusPk,
  ordersOfBuyerPk,
} from './keys.ts';
import { sameValuesCondition } from './list-fields.ts';
import {
  type BookRecord,
  BookStatus,
  type IdempotencyRecord,
  type OrderRecord,
  SEEN_FIELDS,
} from './records.ts';

export async function getIdempotencyRecord(
  userId: string,
  keyHash: string,
): Promise<IdempotencyRecord | null> {
  const item = await getItem<IdempotencyRecord>(idempotencyKey(userId, keyHash));
  if (!item || item.ttl <= nowSeconds()) return null; // TTL deletion is lazy: an expired record is gone
  return item;
}

export async function getOrderRecord(orderId: string): Promise<OrderRecord | null> {
  return (await getItem<OrderRecord>(orderKey(orderId))) ?? null;
}

export interface CheckoutPlan {
  order: OrderRecord;
  /** the books as read just before, all status 0 */
  books: BookRecord[];
  idempotency?: { keyHash: string; record: IdempotencyRecord };
}

/** What stopped a checkout transaction, item by item. */
export type CheckoutFailure =
  | { kind: 'book'; bookId: string; current: BookRecord | null }
  | { kind: 'cartItem'; bookId: string }
  | { kind: 'idempotency'; current: IdempotencyRecord | null }
  | { kind: 'order' }
  | { kind: 'conflict' }
  | { kind: 'other'; code: string };

export type CheckoutOutcome = { ok: true } | { ok: false; failures: CheckoutFailure[] };

/** What an item of the checkout transaction is: the tag of its refusal. */
type Role = 'order' | 'idempotency' | `book:${string}` | `cartItem:${string}` | 'stats';

/**
 * The checkout, all or nothing, in one TransactWriteItems: every book 0 -> 1 with the buyer (on
 * the condition that it is still the listed, unchanged book read before and not the buyer's), the
 * order, the Idempotency-Key record, the cart items removed, and the counters moved.
 * Cancellation reasons (in item order) are returned per item so the caller can tell a sold book
 * from a race worth retrying.
 */
export async function commitCheckout(plan: CheckoutPlan): Promise<CheckoutOutcome> {
  const { order } = plan;
  const items = checkoutItems(plan);
  if (items.length > 100) throw new Error(`checkout transaction has ${items.length} items (max 100)`);
  // No conflict retry here: the caller re-reads the cart and builds a new order (new token).
  let outcome: Awaited<ReturnType<typeof transactWrite<Role>>>;
  try {
    outcome = await transactWrite(items, { clientRequestToken: order.id, retry: NO_RETRY });
  } catch (err) {
    if (err instanceof Busy) return { ok: false, failures: [{ kind: 'conflict' }] };
    throw err;
  }
  if (outcome.ok) return { ok: true };
  const failures = outcome.refused.map((r): CheckoutFailure => {
    if (r.code === 'TransactionConflict') return { kind: 'conflict' };
    if (r.code !== 'ConditionalCheckFailed') return { kind: 'other', code: r.code };
    if (r.tag.startsWith('book:'))
      return {
        kind: 'book',
        bookId: r.tag.slice(5),
        current: r.current ? asBook(r.current as Record<string, unknown>) : null,
      };
    if (r.tag.startsWith('cartItem:')) return { kind: 'cartItem', bookId: r.tag.slice(9) };
    if (r.tag === 'idempotency')
      return { kind: 'idempotency', current: (r.current as IdempotencyRecord | null) ?? null };
    if (r.tag === 'order') return { kind: 'order' };
    return { kind: 'other', code: r.code };
  });
  return { ok: false, failures };
}

export function checkoutItems(plan: CheckoutPlan): Tagged<Role>[] {
  const { order, books } = plan;
  const items: Tagged<Role>[] = [];
  const add = (role: Role, item: TransactItem) => items.push(tag(role, item));

  add('order', {
    Put: {
      TableName: TABLE,
      Item: { ...orderKey(order.id), ...orderIndexes(order), ...order },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  });
  if (plan.idempotency) {
    add('idempotency', {
      Put: {
        TableName: TABLE,
        Item: { ...idempotencyKey(order.buyerId, plan.idempotency.keyHash), ...plan.idempotency.record },
        ConditionExpression: 'attribute_not_exists(pk) OR #ttl <= :now',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':now': nowSeconds() },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    });
  }
  const feeOf = new Map(order.books.map((l) => [l.bookId, l.feeCents ?? 0]));
  for (const book of books) {
    const bought = { ...book, status: BookStatus.Bought, buyerId: order.buyerId, boughtAt: order.createdAt };
    const seen = sameValuesCondition(book as unknown as Item, SEEN_FIELDS, 's');
    add(`book:${book.id}`, {
      Update: {
        TableName: TABLE,
        Key: bookKey(book.id),
        UpdateExpression:
          'SET #status = :bought, buyerId = :buyer, boughtAt = :at, orderId = :order, ' +
          'feeCents = :fee, ' +
          'gsi1pk = :g1pk, gsi1sk = :g1sk, gsi2pk = :g2pk, gsi2sk = :g2sk, gsi3pk = :g3pk, gsi3sk = :g3sk ' +
          'REMOVE gsi4pk, gsi4sk',
        // Still listed, still the same owner and listing date as read, and every field the buyer
        // saw (price, title, edition, course, ISBN, author, condition) as read and checked against
        // the cart's snapshot: the order is what the buyer saw, and the index keys derived from
        // them are right.
        ConditionExpression:
          '#status = :listed AND ownerId = :owner AND ownerId <> :buyer AND #date = :date AND ' +
          `${seen.expression} AND ` +
          'attribute_not_exists(#hidden)',
        ExpressionAttributeNames: {
          '#status': 'status',
          '#date': 'date',
          '#hidden': 'hidden',
          ...seen.names,
        },
        ExpressionAttributeValues: {
          ':bought': BookStatus.Bought,
          ':fee': feeOf.get(book.id) ?? 0,
          ':listed': BookStatus.Listed,
          ':buyer': order.buyerId,
          ':owner': book.ownerId,
          ...seen.values,
          ':date': book.date,
          ':at': order.createdAt,
          ':order': order.id,
          ...indexValues(bookIndexes(bought)),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    });
    add(`cartItem:${book.id}`, {
      Delete: {
        TableName: TABLE,
        Key: cartItemKey(order.buyerId, book.id),
        ConditionExpression: 'attribute_exists(pk)',
      },
    });
  }
  const n = books.length;
  add('stats', cartCountMove(order.buyerId, -n));
  // One entry per seller (summed by the counters module: a transaction may not touch one item twice).
  const counters = counterItems({
    global: {
      totalOrders: 1,
      grossSales: order.subtotalCents,
      feesEarned: order.feeCents,
      ...statusCounterDeltas(BookStatus.Listed, BookStatus.Bought, n),
    },
    users: [
      { userId: order.buyerId, deltas: { booksBought: n } },
      ...books.map((b) => ({ userId: b.ownerId, deltas: { activeListings: -1, booksSold: 1 } })),
    ],
  });
  for (const item of counters) add('stats', item);
  return items;
}

function indexValues(ix: ReturnType<typeof bookIndexes>): Record<string, string> {
  if (!('gsi3pk' in ix) || !ix.gsi3pk || !ix.gsi3sk) throw new Error('a bought book needs its buyer index');
  return {
    ':g1pk': ix.gsi1pk,
    ':g1sk': ix.gsi1sk,
    ':g2pk': ix.gsi2pk,
    ':g2sk': ix.gsi2sk,
    ':g3pk': ix.gsi3pk,
    ':g3sk': ix.gsi3sk,
  };
}

/** The buyer's orders, newest first (gsi2 `ORDERS_OF#<buyer>`), resuming after `after` (one Query). */
export const queryOrdersOfBuyer = (
  buyerId: string,
  limit: number,
  after?: string,
): Promise<Page<OrderRecord>> => indexPageAfter('gsi2', ordersOfBuyerPk(buyerId), orderKey, limit, after);

/** The buyer's orders, newest first, a page at a time (cursor bound to the buyer's list). */
export const listOrdersOfBuyer = pagedList(
  (buyerId) => `orders:${ordersOfBuyerPk(buyerId)}`,
  DatedPosition,
  queryOrdersOfBuyer,
);

/** A stored book item in today's shape (price in cents, a condition grade). */
const asBook = (item: Record<string, unknown>): BookRecord => item as unknown as BookRecord;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Marks one book of an order as cancelled (the order must exist). */
export function cancelOrderBookOp(orderId: string, cancellation: OrderCancellation): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: orderKey(orderId),
      // string-set ADDs: they create the set on an order that has none (a map's SET a.b would fail)
      UpdateExpression: 'ADD cancelledBookIds :ids, cancellations :entry SET updatedAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: {
        ':ids': new Set([cancellation.bookId]),
        ':entry': new Set([JSON.stringify(cancellation)]),
        ':at': cancellation.at,
      },
    },
  };
}

/** One cancelled book of an order, as its cancel recorded it on the order (`cancellations`). */
export interface OrderCancellation {
  bookId: string;
  /** when it was cancelled */
  at: string;
  /** when it had been verified and charged, if it had (then its charge was refunded) */
  verifiedAt: string | null;
  /** the admin's words, or the hand-over job's */
  reason: string | null;
}

/** The order's cancellations by book id (entries that do not parse are skipped). */
export function orderCancellations(order: OrderRecord): Map<string, OrderCancellation> {
  const byBook = new Map<string, OrderCancellation>();
  for (const raw of order.cancellations ?? []) {
    try {
      const entry = JSON.parse(raw) as OrderCancellation;
      if (typeof entry.bookId === 'string' && typeof entry.at === 'string') byBook.set(entry.bookId, entry);
    } catch {
      // not ours: ignore
    }
  }
  return byBook;
}

/** Orders of one status, newest first, a page at a time (gsi1 `ORDERS#<status>`). */
export async function listOrders(
  status: number,
  limit: number,
  cursor: string | undefined,
): Promise<Page<OrderRecord>> {
  return queryGsi1Page(ordersByStatusPk(status), orderKey, { limit, cursor, forward: false }, (i) =>
    stripKeys<OrderRecord>(i),
  );
}
