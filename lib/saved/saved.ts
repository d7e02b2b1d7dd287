/**
 * Saved books: a student keeps an eye on a book without putting it in the cart (docs/saved.md).
 * Saving is a pointer with the book's price at the time; it never reserves the book. A user saves
 * at most SAVED_LIMIT books, held by a count moved in the save's own transaction.
 */
import { toApiBook } from '#lib/books/schemas.ts';
import { snapshotOf } from '#lib/cart/cart.ts';
import { getBook, getBooks } from '#lib/db/books.ts';
import { type BookRecord, BookStatus } from '#lib/db/records.ts';
import { deleteSavedBook, listSavedBooksPage, putSavedBook } from '#lib/db/saved.ts';
import { Conflict, NotFound } from '#lib/errors.ts';
import type { Page } from '#lib/table/page.ts';
import { toDollars } from '#lib/values/money.ts';
import type { SavedBook, SavedBooksQuery } from './schemas.ts';

/** The most books one user can save. */
export const SAVED_LIMIT = 200;
/** A page of getSavedBooks by default (at most 100: one BatchGetItem reads a page's books). */
export const SAVED_PAGE = 50;

/**
 * Saves a listed book of someone else. 404 for a book the caller may not see (unknown, hidden by
 * reports, or sold or unlisted and not theirs), so saving reveals nothing getBook would not; 409
 * for one's own book, for a book no longer listed, and past SAVED_LIMIT. Saving again is harmless
 * (`added: false`).
 */
export async function saveBook(userId: string, bookId: string) {
  const book = await getBook(bookId);
  if (!book || (book.ownerId !== userId && (book.hidden || !visibleTo(book, userId)))) {
    throw new NotFound('No such book.', 'BOOK_NOT_FOUND');
  }
  if (book.ownerId === userId) {
    throw new Conflict(
      'You cannot save your own book.',
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
  const result = await putSavedBook(userId, snapshotOf(book), new Date().toISOString(), SAVED_LIMIT);
  if (result === 'full') {
    throw new Conflict(
      `You can save at most ${SAVED_LIMIT} books. Unsave some first.`,
      [{ bookId, message: `You already saved ${SAVED_LIMIT} books.` }],
      'SAVED_FULL',
    );
  }
  return { bookId, saved: true as const, added: result === 'saved' };
}

/** A book other than one's own that `userId` may see: listed, or bought by them. */
const visibleTo = (book: BookRecord, userId: string): boolean =>
  book.status === BookStatus.Listed || book.buyerId === userId;

export async function unsaveBook(userId: string, bookId: string) {
  const removed = await deleteSavedBook(userId, bookId);
  return { bookId, saved: false as const, removed };
}

/**
 * The caller's saved books, newest saved first, each as it is now with whether it can still be
 * bought: one Query for the page and one BatchGetItem for its books.
 */
export async function getSavedBooks(userId: string, query: SavedBooksQuery): Promise<Page<SavedBook>> {
  const page = await listSavedBooksPage(userId, query.limit ?? SAVED_PAGE, query.cursor);
  const books = await getBooks(page.items.map((i) => i.bookId));
  return {
    items: page.items.map((saved) => {
      const book = books.get(saved.bookId);
      // Gone for good, or hidden by reports: shown as it was when saved, unlisted.
      const shown: BookRecord =
        book && !book.hidden ? book : { ...saved.snapshot, type: 'book', status: BookStatus.Unlisted };
      return {
        ...toApiBook(shown),
        available: book !== undefined && book.status === BookStatus.Listed && !book.hidden,
        savedAt: saved.savedAt,
        priceWhenSaved: toDollars(saved.snapshot.priceCents),
      };
    }),
    next: page.next,
  };
}
