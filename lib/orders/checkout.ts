/**
 * Checkout: buys every book in the caller's cart, all or nothing, in one DynamoDB transaction
 * (lib/db/orders.ts commitCheckout). First come, first served: the cart never reserved anything,
 * so the transaction's conditions decide who gets a book when buyers race.
 *
 * Each attempt reads (Idempotency-Key record, cart, books), refuses early when a book is already
 * gone, then commits. A cancelled transaction is read item by item: a book sold or unlisted
 * meanwhile -> 409 naming it; the same Idempotency-Key committed by a concurrent request -> that
 * order; anything else (a transaction conflict, a book edited or a cart item removed between the
 * read and the write) -> a fresh attempt after a jittered backoff, and 503 after MAX_ATTEMPTS.
 * A book whose price, title, edition, course, ISBN, author or condition differs from the cart's
 * snapshot of it is 409 (PRICE_CHANGED or BOOK_CHANGED), checked on the books read anyway and
 * guarded by the transaction's condition on the same fields: no extra DynamoDB call.
 */
import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import { byAdded, CART_LIMIT, CART_READ_LIMIT, seenChanges, unavailableReason } from '#lib/cart/cart.ts';
import { getBooks } from '#lib/db/books.ts';
import { listCartItems } from '#lib/db/cart.ts';
import { commitCheckout, getIdempotencyRecord, getOrderRecord } from '#lib/db/orders.ts';
import {
  type BookRecord,
  type CartItemRecord,
  type IdempotencyRecord,
  type OrderRecord,
  OrderStatus,
  type SeenField,
} from '#lib/db/records.ts';
import { BadRequest, Busy, Conflict, type ErrorDetail, Unprocessable } from '#lib/errors.ts';
import { countEvent } from '#lib/metrics.ts';
import { expiresAfter } from '#lib/values/expiry.ts';
import { allocateFee, priceOrder, toDollars } from '#lib/values/money.ts';
import type { Order } from './schemas.ts';
import { chargedInDollars } from './totals.ts';

export const MAX_ATTEMPTS = 5;
/** How long an Idempotency-Key is remembered. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

export interface CheckoutResult {
  order: Order;
  /** true when an earlier checkout with the same Idempotency-Key is answered again */
  replayed: boolean;
}

/** Checks the Idempotency-Key header: 1..255 visible ASCII characters, or absent. */
export function parseIdempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(value)) {
    throw new BadRequest(
      'The Idempotency-Key header must be 1 to 255 visible ASCII characters.',
      [{ field: 'Idempotency-Key', in: 'header', message: 'Invalid Idempotency-Key.' }],
      'VALIDATION_FAILED',
    );
  }
  return value;
}

export async function checkoutCart(buyerId: string, idempotencyKey?: string): Promise<CheckoutResult> {
  const keyHash = idempotencyKey === undefined ? undefined : sha256(idempotencyKey);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (attempt > 0) await backoff(attempt);

    const earlier = keyHash ? await getIdempotencyRecord(buyerId, keyHash) : null;
    const cart = await listCartItems(buyerId, CART_READ_LIMIT);
    if (earlier) return replay(earlier, cart);

    if (cart.length === 0) {
      return replayOr(keyHash, buyerId, cart, new Conflict('Your cart is empty.', undefined, 'CART_EMPTY'));
    }
    if (cart.length > CART_LIMIT) {
      throw new Conflict(
        `A cart holds at most ${CART_LIMIT} books; this one holds ${cart.length}. Remove some first.`,
        undefined,
        'CART_TOO_LARGE',
      );
    }
    const ids = [...cart].sort(byAdded).map((i) => i.bookId);
    const found = await getBooks(ids, { consistent: true });
    const unavailable = unavailableDetails(ids, (id) => found.get(id) ?? null, buyerId);
    if (unavailable.length > 0) return replayOr(keyHash, buyerId, cart, booksUnavailable(unavailable));
    const books = ids.map((id) => found.get(id) as BookRecord);
    const changed = bookChanges(cart, found);
    if (changed.length > 0) return replayOr(keyHash, buyerId, cart, booksChanged(changed));

    const order = buildOrder(buyerId, books);
    const idempotency =
      keyHash === undefined
        ? undefined
        : { keyHash, record: idempotencyRecord(buyerId, order, cartFingerprint(cart)) };
    const outcome = await commitCheckout({ order, books, idempotency });
    if (outcome.ok) {
      countEvent('Checkouts');
      return { order: toApiOrder(order), replayed: false };
    }

    // A concurrent request with the same key won: its books are ours, so answer with its order.
    const sameKey = outcome.failures.find((f) => f.kind === 'idempotency');
    if (sameKey?.kind === 'idempotency') {
      if (sameKey.current) return replay(sameKey.current, cart);
      continue;
    }
    const sold = outcome.failures.flatMap((f) =>
      f.kind === 'book' && f.current && unavailableReason(f.current, buyerId)
        ? [{ bookId: f.bookId, message: unavailableReason(f.current, buyerId) as string }]
        : [],
    );
    if (sold.length > 0) return replayOr(keyHash, buyerId, cart, booksUnavailable(sold));
    const other = outcome.failures.find((f) => f.kind === 'other');
    if (other?.kind === 'other') throw new Error(`checkout transaction cancelled: ${other.code}`);
    // Otherwise: a conflict, a book changed or vanished, or the cart changed: read again.
  }
  throw new Busy('Checkout is busy right now. Try again shortly.', 1);
}

/**
 * A concurrent request with the same key may have committed between this attempt's first read and
 * the reads that found the cart empty or its books sold (to this very buyer): then the answer is
 * that order, not the error. The key's record is written in the same transaction, so reading it
 * again tells. Without a key (or without a record) the error stands.
 */
async function replayOr(
  keyHash: string | undefined,
  buyerId: string,
  cart: CartItemRecord[],
  error: Conflict,
): Promise<CheckoutResult> {
  const earlier = keyHash === undefined ? null : await getIdempotencyRecord(buyerId, keyHash);
  if (!earlier) throw error;
  return replay(earlier, cart);
}

/**
 * The stored order of an earlier checkout with the same key, unless the key is reused for another
 * request: 422. After a successful checkout the cart is empty; a cart holding anything means a new
 * purchase, told apart by the request's fingerprint (each cart item with its price and the time it
 * was added, so even the same book re-added after a cancelled purchase is a new request).
 */
async function replay(earlier: IdempotencyRecord, cart: CartItemRecord[]): Promise<CheckoutResult> {
  if (cart.length > 0 && cartFingerprint(cart) !== earlier.cartHash) {
    throw new Unprocessable(
      'This Idempotency-Key was already used for a different request. Use a new key for a new checkout.',
      'IDEMPOTENCY_KEY_REUSED',
    );
  }
  const order = await getOrderRecord(earlier.orderId);
  if (!order) throw new Error('an idempotency record points at a missing order');
  return { order: toApiOrder(order), replayed: true };
}

function unavailableDetails(
  ids: string[],
  bookOf: (id: string) => BookRecord | null,
  buyerId: string,
): ErrorDetail[] {
  return ids.flatMap((bookId) => {
    const message = unavailableReason(bookOf(bookId), buyerId);
    return message ? [{ bookId, message }] : [];
  });
}

/** How the contract names a field the buyer saw (a book's `price`, not its cents). */
const API_FIELD: Record<SeenField, string> = {
  priceCents: 'price',
  name: 'name',
  edition: 'edition',
  course: 'course',
  ISBN: 'ISBN',
  author: 'author',
  condition: 'condition',
};
/** ... and how a message names it. */
const LABEL: Record<SeenField, string> = { ...API_FIELD, name: 'title' };

const dollars = (cents: number) => `$${toDollars(cents).toFixed(2)}`;

/** Why a changed book is refused: its new price, and the other fields the seller changed. */
function changeMessage(fields: SeenField[], priceInCart: number, price: number): string {
  const others = fields.filter((f) => f !== 'priceCents').map((f) => LABEL[f]);
  const priceLine = fields.includes('priceCents')
    ? `The price changed from ${dollars(priceInCart)} to ${dollars(price)}.`
    : '';
  if (others.length === 0) return priceLine;
  const list = others.length === 1 ? others[0] : `${others.slice(0, -1).join(', ')} and ${others.at(-1)}`;
  return `${priceLine} The seller changed its ${list} since you added it.`.trim();
}

/**
 * Books a field of which the buyer saw (price, title, edition, course, ISBN, author, condition)
 * now differs from the cart's snapshot of it; read from the books checkout reads anyway.
 */
function bookChanges(cart: CartItemRecord[], found: Map<string, BookRecord>): ErrorDetail[] {
  return [...cart].sort(byAdded).flatMap((item) => {
    const book = found.get(item.bookId);
    const fields = book ? seenChanges(item.snapshot, book) : [];
    if (!book || fields.length === 0) return [];
    return [
      {
        bookId: item.bookId,
        name: book.name,
        changed: fields.map((f) => API_FIELD[f]),
        ...(fields.includes('priceCents')
          ? { priceInCart: toDollars(item.snapshot.priceCents), price: toDollars(book.priceCents) }
          : {}),
        message: changeMessage(fields, item.snapshot.priceCents, book.priceCents),
      },
    ];
  });
}

/**
 * 409: the buyer buys only what they saw; adding the book again accepts it as it is now.
 * `PRICE_CHANGED` when only prices changed (as before fields other than the price could be
 * edited), else `BOOK_CHANGED`.
 */
function booksChanged(details: ErrorDetail[]): Conflict {
  const onlyPrices = details.every((d) => (d.changed as string[]).every((f) => f === 'price'));
  return onlyPrices
    ? new Conflict(
        'The price of a book in your cart changed since you added it. Nothing was bought: check the new prices and add the book again to accept it.',
        details,
        'PRICE_CHANGED',
      )
    : new Conflict(
        'The seller changed a book in your cart since you added it. Nothing was bought: check the book and add it again to accept it.',
        details,
        'BOOK_CHANGED',
      );
}

function booksUnavailable(details: ErrorDetail[]): Conflict {
  return new Conflict(
    details.length === 1
      ? 'A book in your cart is no longer available. Nothing was bought.'
      : `${details.length} books in your cart are no longer available. Nothing was bought.`,
    details,
    'BOOKS_UNAVAILABLE',
  );
}

/** The order record of `buyerId` buying `books` (prices and fee from lib/orders pricing). */
export function buildOrder(
  buyerId: string,
  books: BookRecord[],
  at: { id?: string; createdAt?: string } = {},
): OrderRecord {
  const totals = priceOrder(books.map((b) => b.priceCents));
  const fees = allocateFee(
    books.map((b) => b.priceCents),
    totals.feeCents,
  );
  return {
    type: 'order',
    id: at.id ?? ulid(),
    buyerId,
    books: books.map((b, i) => ({
      bookId: b.id,
      name: b.name,
      edition: b.edition,
      course: b.course,
      ISBN: b.ISBN,
      condition: b.condition,
      priceCents: b.priceCents,
      feeCents: fees[i] ?? 0,
      sellerId: b.ownerId,
      sellerFirstName: b.ownerFirstName,
    })),
    bookIds: books.map((b) => b.id),
    sellerIds: [...new Set(books.map((b) => b.ownerId))],
    subtotalCents: totals.subtotalCents,
    feeCents: totals.feeCents,
    totalCents: totals.totalCents,
    status: OrderStatus.Placed,
    createdAt: at.createdAt ?? new Date().toISOString(),
  };
}

export function idempotencyRecord(userId: string, order: OrderRecord, hash: string): IdempotencyRecord {
  return {
    type: 'idempotency',
    userId,
    orderId: order.id,
    cartHash: hash,
    createdAt: order.createdAt,
    ttl: expiresAfter(Date.parse(order.createdAt), IDEMPOTENCY_TTL_SECONDS),
  };
}

export function toApiOrder(o: OrderRecord): Order {
  return {
    id: o.id,
    buyer: { id: o.buyerId },
    books: o.books.map((l) => ({
      id: l.bookId,
      name: l.name,
      edition: l.edition,
      course: l.course,
      ISBN: l.ISBN,
      condition: l.condition,
      price: toDollars(l.priceCents),
      owner: { id: l.sellerId, firstName: l.sellerFirstName },
    })),
    // what it charges now: a cancelled book is never in a total
    ...chargedInDollars(o),
    status: o.status,
    createdAt: o.createdAt,
  };
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
/** The request's fingerprint: every cart item, its price in the cart and when it was added. */
export const cartFingerprint = (cart: CartItemRecord[]) =>
  sha256(
    cart
      .map((i) => `${i.bookId}\u0000${i.snapshot.priceCents}\u0000${i.addedAt}`)
      .sort()
      .join('\n'),
  );

/** Full jitter over an exponential step: 20-40 ms, 40-80 ms, 80-160 ms, ... */
const backoff = (attempt: number) => {
  const step = 20 * 2 ** (attempt - 1);
  return new Promise((r) => setTimeout(r, step + Math.random() * step));
};
