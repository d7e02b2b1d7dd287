/**
 * The purchase hand-over an admin runs: confirmBook (1 -> 2: condition verified, buyer charged),
 * setBookPaid (2 -> 3: delivered, seller paid) and cancelPurchase (1 or 2 -> 0: relisted; 5 for a
 * suspended seller). Each
 * move is one named transaction of lib/db/books.ts: the book (conditional on the status it was read
 * with), its audit entry and the counters; here, which moves are allowed and what a refusal means.
 * Notifications follow from the status change (stream processors), not from here.
 */
import { type Book, toApiBook } from '#lib/books/schemas.ts';
import { getBook, relistCancelledPurchase, settlePurchase, verifyPurchase } from '#lib/db/books.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { getUser } from '#lib/db/users.ts';
import { Conflict, NotFound } from '#lib/errors.ts';
import { TransactionRefused } from '#lib/table/transact.ts';
import { canMove, feeShareCents, HAND_OVER, type HandOverAction } from './rules.ts';

function wrongStatus(action: HandOverAction, status: number): Conflict {
  const from = HAND_OVER[action].from.join(' or ');
  return new Conflict(
    `The book has status ${status}; ${action} needs status ${from}.`,
    [{ field: 'bookId', message: `status is ${status}`, status }],
    'WRONG_STATUS',
  );
}

async function readMovable(action: HandOverAction, bookId: string): Promise<BookRecord> {
  const book = await getBook(bookId);
  if (!book) throw new NotFound('No such book.');
  if (!canMove(action, book.status)) throw wrongStatus(action, book.status);
  return book;
}

async function run(action: HandOverAction, bookId: string, write: (book: BookRecord) => Promise<BookRecord>) {
  const book = await readMovable(action, bookId);
  try {
    return await write(book);
  } catch (err) {
    if (err instanceof TransactionRefused) {
      // The book moved between our read and our write (another admin, a racing request).
      const now = await getBook(bookId);
      if (!now) throw new NotFound('No such book.');
      if (now.status !== book.status) throw wrongStatus(action, now.status);
      // Same status: something else the move depends on changed (e.g. its order); nothing was written.
      throw new Conflict(
        'The purchase changed while it was being moved. Try again.',
        undefined,
        'CONCURRENT_CHANGE',
      );
    }
    throw err;
  }
}

export async function confirmBook(actorId: string, bookId: string, now = new Date()): Promise<Book> {
  const stamp = { actor: actorId, at: now.toISOString(), reason: null };
  const moved = await run('confirmBook', bookId, (book) => verifyPurchase(book, stamp));
  return toApiBook(moved, { showBuyer: true });
}

export async function setBookPaid(actorId: string, bookId: string, now = new Date()): Promise<Book> {
  const stamp = { actor: actorId, at: now.toISOString(), reason: null };
  const moved = await run('setBookPaid', bookId, (book) => settlePurchase(book, stamp));
  return toApiBook(moved, { showBuyer: true });
}

/**
 * 1 or 2 -> 0: the purchase is undone and the book relisted with a fresh listing date (like
 * reactivateBook, so it is not unlisted as stale the next night and is matched again); the
 * counters checkout moved are moved back (lib/db/books.ts `relistCancelledPurchase`). totalOrders
 * stays (the order happened), and the order keeps the book in its `cancelledBookIds`.
 * A suspended seller's book goes to 5 (unlisted) instead: suspending unlisted their other books,
 * and a relisted one could be bought from someone who cannot hand it over.
 */
export async function cancelPurchase(
  actorId: string,
  bookId: string,
  reason: string,
  now = new Date(),
): Promise<Book> {
  const stamp = { actor: actorId, at: now.toISOString(), reason };
  const moved = await run('cancelPurchase', bookId, async (book) =>
    // The share of the fee checkout allocated to this book and stored on it; a book bought
    // before shares were stored falls back to 5 % of its own price.
    relistCancelledPurchase(
      book,
      typeof book.feeCents === 'number' ? book.feeCents : feeShareCents(book.priceCents),
      stamp,
      (await getUser(book.ownerId))?.suspended === true,
    ),
  );
  return toApiBook(moved);
}
