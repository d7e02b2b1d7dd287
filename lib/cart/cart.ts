/**
 * The cart: pointers to books a user means to buy. Adding never reserves a book (it stays listed
 * for everyone; first come, first served at checkout), so adding only checks that the book can be
 * bought right now and that the cart stays within CART_LIMIT.
 */
import { toApiBook } from '#lib/books/schemas.ts';
import {
  deleteCartItem,
  deleteCartItems,
  getBookRecord,
  getBookRecords,
  listCartItems,
  putCartItem,
} from '#lib/db/cart.ts';
import { type BookRecord, BookStatus, type CartItemRecord } from '#lib/db/records.ts';
import { Conflict, NotFound } from '#lib/errors.ts';
import type { CartBook } from './schemas.ts';

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
  if (book.status !== BookStatus.Listed) return 'This book is no longer available.';
  return null;
}

export async function addToCart(userId: string, bookId: string) {
  const book = await getBookRecord(bookId);
  if (!book) throw new NotFound('No such book.');
  if (book.ownerId === userId) {
    throw new Conflict(
      'You cannot buy your own book.',
      [{ bookId, message: 'This is your own book.' }],
      'OWN_BOOK',
    );
  }
  if (book.status !== BookStatus.Listed) {
    throw new Conflict(
      'This book is no longer available.',
      [{ bookId, message: 'This book is no longer available.' }],
      'BOOK_UNAVAILABLE',
    );
  }
  const items = await listCartItems(userId, CART_READ_LIMIT);
  if (items.some((i) => i.bookId === bookId)) {
    return { bookId, inCart: true as const, added: false, cartSize: items.length };
  }
  if (items.length >= CART_LIMIT) {
    throw new Conflict(
      `A cart holds at most ${CART_LIMIT} books. Check out or remove some first.`,
      [{ bookId, message: `The cart already holds ${items.length} books.` }],
      'CART_FULL',
    );
  }
  const added = await putCartItem(userId, snapshotOf(book), new Date().toISOString());
  return { bookId, inCart: true as const, added, cartSize: items.length + (added ? 1 : 0) };
}

export async function removeFromCart(userId: string, bookId: string) {
  const removed = await deleteCartItem(userId, bookId);
  return { bookId, inCart: false as const, removed };
}

export async function clearCart(userId: string) {
  const items = await listCartItems(userId, CART_READ_LIMIT);
  await deleteCartItems(
    userId,
    items.map((i) => i.bookId),
  );
  return { removed: items.length };
}

/** The cart's books as they are now, in the order they were added. */
export async function getCartItems(userId: string): Promise<CartBook[]> {
  const items = await listCartItems(userId, CART_READ_LIMIT);
  const books = await getBookRecords(items.map((i) => i.bookId));
  return [...items].sort(byAdded).map((item) => {
    const book = books.get(item.bookId);
    // A book deleted for good is shown from the snapshot taken when it was added, as unlisted.
    const shown: BookRecord = book ?? { ...item.snapshot, type: 'book', status: BookStatus.Unlisted };
    return { ...toApiBook(shown), available: unavailableReason(book, userId) === null };
  });
}

/** Cart order: the order books were added in. */
export const byAdded = (a: CartItemRecord, b: CartItemRecord) =>
  a.addedAt === b.addedAt ? a.bookId.localeCompare(b.bookId) : a.addedAt.localeCompare(b.addedAt);

function snapshotOf(b: BookRecord): CartItemRecord['snapshot'] {
  return {
    id: b.id,
    name: b.name,
    edition: b.edition,
    course: b.course,
    courseNorm: b.courseNorm,
    price: b.price,
    condition: b.condition,
    comments: b.comments,
    ISBN: b.ISBN,
    date: b.date,
    ownerId: b.ownerId,
    ownerFirstName: b.ownerFirstName,
  };
}
