/**
 * The cart: pointers to books a user means to buy. Adding never reserves a book (it stays listed
 * for everyone; first come, first served at checkout), so adding only checks that the book can be
 * bought right now and that the cart stays within CART_LIMIT.
 */
import { toApiBook } from '#lib/books/schemas.ts';
import { getBook, getBooks } from '#lib/db/books.ts';
import {
  deleteCartItem,
  deleteCartItems,
  listCartItems,
  putCartItem,
  refreshCartItem,
} from '#lib/db/cart.ts';
import {
  type BookRecord,
  BookStatus,
  type CartBookSnapshot,
  type CartItemRecord,
  SEEN_FIELDS,
  type SeenField,
} from '#lib/db/records.ts';
import { Busy, Conflict, NotFound } from '#lib/errors.ts';
import { priceOrder, toDollars } from '#lib/values/money.ts';
import type { CartContents } from './schemas.ts';

/**
 * The most books a cart (and so one checkout) can hold. Checkout is one DynamoDB transaction
 * (at most 100 actions): 1 order + 1 idempotency record + per book (1 book update + 1 cart delete)
 * + 1 global counters + 1 buyer counters + 1 per distinct seller (at most one per book)
 * = 4 + 3n <= 100, so n <= 32. 25 leaves room for more per-checkout items later.
 */
export const CART_LIMIT = 25;

/**
 * How many cart items any read looks at. Adds that race past CART_LIMIT are possible (the limit
 * is checked before the write), so reads look a little further and checkout refuses an
 * over-full cart rather than buy part of it.
 */
export const CART_READ_LIMIT = CART_LIMIT * 2;

/** Why a book cannot be bought by `userId`, or null when it can. */
export function unavailableReason(book: BookRecord | null | undefined, userId: string): string | null {
  if (!book) return 'This book no longer exists.';
  if (book.ownerId === userId) return 'This is your own book.';
  if (book.status !== BookStatus.Listed || book.hidden) return 'This book is no longer available.';
  return null;
}

export async function addToCart(userId: string, bookId: string) {
  const book = await getBook(bookId);
  if (!book) throw new NotFound('No such book.');
  if (book.ownerId === userId) {
    throw new Conflict(
      'You cannot buy your own book.',
      [{ bookId, message: 'This is your own book.' }],
      'OWN_BOOK',
    );
  }
  if (book.status !== BookStatus.Listed || book.hidden) {
    throw new Conflict(
      'This book is no longer available.',
      [{ bookId, message: 'This book is no longer available.' }],
      'BOOK_UNAVAILABLE',
    );
  }
  const items = await listCartItems(userId, CART_READ_LIMIT);
  const existing = items.find((i) => i.bookId === bookId);
  if (existing) {
    // Adding a carted book again accepts it as it is now (checkout sells only what the cart saw).
    if (seenChanges(existing.snapshot, book).length > 0) await refreshCartItem(existing, snapshotOf(book));
    return { bookId, inCart: true as const, added: false, cartSize: items.length };
  }
  if (items.length >= CART_LIMIT) throw cartFull(bookId, items.length);
  // The limit is enforced by the conditional count in the same transaction as the put, so
  // concurrent adds can never pass it; a cart with no count yet starts it at its items.
  const now = new Date().toISOString();
  const result = await putCartItem(userId, snapshotOf(book), now, CART_LIMIT, items.length);
  if (result === 'full') throw cartFull(bookId, CART_LIMIT);
  const added = result === 'added';
  return { bookId, inCart: true as const, added, cartSize: items.length + (added ? 1 : 0) };
}

const cartFull = (bookId: string, size: number) =>
  new Conflict(
    `A cart holds at most ${CART_LIMIT} books. Check out or remove some first.`,
    [{ bookId, message: `The cart already holds ${size} books.` }],
    'CART_FULL',
  );

export async function removeFromCart(userId: string, bookId: string) {
  const removed = await deleteCartItem(userId, bookId);
  return { bookId, inCart: false as const, removed };
}

export async function clearCart(userId: string) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const items = await listCartItems(userId, CART_READ_LIMIT);
    if (
      await deleteCartItems(
        userId,
        items.map((i) => i.bookId),
      )
    ) {
      return { removed: items.length };
    }
  }
  throw new Busy('The cart is changing right now. Try again shortly.', 1);
}

/**
 * The cart's books as they are now, in the order they were added, with the money of a checkout
 * of the available ones (subtotal, fee, total), computed in cents here so clients never do.
 */
export async function getCartItems(userId: string): Promise<CartContents> {
  const items = await listCartItems(userId, CART_READ_LIMIT);
  const books = await getBooks(
    items.map((i) => i.bookId),
    { consistent: true },
  );
  const available: number[] = [];
  const shown = [...items].sort(byAdded).map((item) => {
    const book = books.get(item.bookId);
    // A book deleted for good is shown from the snapshot taken when it was added, as unlisted.
    const record: BookRecord = book ?? { ...item.snapshot, type: 'book', status: BookStatus.Unlisted };
    const isAvailable = unavailableReason(book, userId) === null;
    if (isAvailable) available.push(record.priceCents);
    return { ...toApiBook(record), available: isAvailable };
  });
  const totals = priceOrder(available);
  return {
    items: shown,
    subtotal: toDollars(totals.subtotalCents),
    fee: toDollars(totals.feeCents),
    total: toDollars(totals.totalCents),
  };
}

/** Code-unit order, as DynamoDB orders sort keys (ISO times, ULIDs): no locale's collation. */
const ordinal = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Cart order: the order books were added in, then by id. Compared by code unit, not with
 * `localeCompare`, whose first call loads ICU's collation data (11 ms of checkout's cold start).
 */
export const byAdded = (a: CartItemRecord, b: CartItemRecord) =>
  a.addedAt === b.addedAt ? ordinal(a.bookId, b.bookId) : ordinal(a.addedAt, b.addedAt);

/**
 * The fields a buyer saw in `snapshot` (price, title, edition, course, ISBN, author, condition)
 * that `book` now has otherwise; a missing author or ISBN is the same as a null one.
 */
export function seenChanges(snapshot: CartBookSnapshot, book: BookRecord): SeenField[] {
  return SEEN_FIELDS.filter((f) => (snapshot[f] ?? null) !== (book[f] ?? null));
}

/** What a cart item keeps of its book (shown in the cart without reading the book). */
export function snapshotOf(b: BookRecord): CartItemRecord['snapshot'] {
  return {
    id: b.id,
    name: b.name,
    edition: b.edition,
    course: b.course,
    courseNorm: b.courseNorm,
    priceCents: b.priceCents,
    condition: b.condition,
    author: b.author ?? null,
    comments: b.comments,
    ISBN: b.ISBN,
    date: b.date,
    ownerId: b.ownerId,
    ownerFirstName: b.ownerFirstName,
  };
}
