/**
 * The purchase hand-over an admin runs: confirmBook (1 -> 2: condition verified, buyer charged),
 * setBookPaid (2 -> 3: delivered, seller paid) and cancelPurchase (1 or 2 -> 0: relisted). Each
 * move is one transaction: the book (conditional on the status it was read with), its audit entry
 * and the counters. Notifications follow from the status change (stream processors), not from here.
 */
import { type Book, toApiBook } from '#lib/books/schemas.ts';
import { newAuditRecord } from '#lib/db/audit.ts';
import { getBook, listingIndexMove, moveBookWithAudit, updateBookOp } from '#lib/db/books.ts';
import { statusCounterDeltas } from '#lib/db/counters.ts';
import { bookIndexes } from '#lib/db/keys.ts';
import { cancelOrderBookOp } from '#lib/db/orders.ts';
import type { BookRecord } from '#lib/db/records.ts';
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

/** 1 -> 2, or a simple forward move 2 -> 3 (setBookPaid also credits the seller's moneyMade). */
async function moveForward(
  actorId: string,
  action: 'confirmBook' | 'setBookPaid',
  bookId: string,
  now: Date,
) {
  return run(action, bookId, async (book) => {
    const to = HAND_OVER[action].to;
    const at = now.toISOString();
    const moved: BookRecord = { ...book, status: to };
    await moveBookWithAudit({
      bookOp: updateBookOp(
        book.id,
        { from: book.status },
        {
          status: to,
          statusChangedAt: at,
          ...listingIndexMove(moved).set,
        },
        listingIndexMove(moved).remove,
      ),
      audit: newAuditRecord({
        at,
        actor: actorId,
        action,
        target: { kind: 'book', id: book.id },
        before: { status: book.status },
        after: { status: to },
        reason: null,
      }),
      globalDeltas: statusCounterDeltas(book.status, to),
      userDeltas:
        action === 'setBookPaid' ? [{ userId: book.ownerId, deltas: { moneyMade: book.priceCents } }] : [],
    });
    return moved;
  });
}

export async function confirmBook(actorId: string, bookId: string, now = new Date()): Promise<Book> {
  return toApiBook(await moveForward(actorId, 'confirmBook', bookId, now), { showBuyer: true });
}

export async function setBookPaid(actorId: string, bookId: string, now = new Date()): Promise<Book> {
  return toApiBook(await moveForward(actorId, 'setBookPaid', bookId, now), { showBuyer: true });
}

/**
 * 1 or 2 -> 0: the purchase is undone and the book relisted with a fresh listing date (like
 * reactivateBook, so it is not unlisted as stale the next night and is matched again). Reverses
 * what checkout counted: buyer booksBought -1, seller booksSold -1 and activeListings +1,
 * grossSales - price, feesEarned - the book's share of its order's fee as allocated at checkout; totalOrders stays (the order happened).
 * The order keeps the book, listed in its `cancelledBookIds`.
 */
export async function cancelPurchase(
  actorId: string,
  bookId: string,
  reason: string,
  now = new Date(),
): Promise<Book> {
  const moved = await run('cancelPurchase', bookId, async (book) => {
    const at = now.toISOString();
    const relisted: BookRecord = {
      ...book,
      status: HAND_OVER.cancelPurchase.to,
      date: at,
      buyerId: null,
      boughtAt: null,
      orderId: null,
    };
    const idx = bookIndexes(relisted);
    const cents = book.priceCents;
    // The share of the fee checkout allocated to this book and stored on it; a book bought
    // before shares were stored falls back to 5 % of its own price.
    const fee = typeof book.feeCents === 'number' ? book.feeCents : feeShareCents(cents);
    await moveBookWithAudit({
      bookOp: updateBookOp(
        book.id,
        { from: book.status },
        {
          status: relisted.status,
          date: at,
          statusChangedAt: at,
          gsi2pk: idx.gsi2pk,
          gsi2sk: idx.gsi2sk,
          ...listingIndexMove(relisted).set,
        },
        [
          'buyerId',
          'boughtAt',
          'orderId',
          'feeCents',
          'gsi3pk',
          'gsi3sk',
          ...listingIndexMove(relisted).remove,
        ],
      ),
      audit: newAuditRecord({
        at,
        actor: actorId,
        action: 'cancelPurchase',
        target: { kind: 'book', id: book.id },
        before: { status: book.status, buyerId: book.buyerId ?? null, orderId: book.orderId ?? null },
        after: { status: relisted.status, buyerId: null, orderId: null },
        reason,
      }),
      globalDeltas: {
        ...statusCounterDeltas(book.status, relisted.status),
        grossSales: -cents,
        feesEarned: -fee,
      },
      userDeltas: [
        ...(book.buyerId ? [{ userId: book.buyerId, deltas: { booksBought: -1 } }] : []),
        { userId: book.ownerId, deltas: { booksSold: -1, activeListings: 1 } },
      ],
      extra: book.orderId ? [cancelOrderBookOp(book.orderId, book.id, at)] : [],
    });
    return relisted;
  });
  return toApiBook(moved);
}
