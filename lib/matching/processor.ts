/**
 * The matcher, run by the stream consumer (functions/streams/processors.ts).
 *
 *  - A book that enters status 0 (posted, re-listed, purchase cancelled) is added to the
 *    listed-book index and matched against other users' open requests, found by Query on the
 *    request indexes: its ISBN, its course, and each significant word of its title (a request is
 *    indexed under its longest title word, which every title match must contain).
 *  - A book that leaves status 0 (or is deleted) leaves the index and its stored matches are
 *    deleted (getUserMatches already hides it, since it reads the books' current status).
 *  - A new request is matched against listed books by its ISBN, course and key word.
 *  - A deleted request's leftover matches are deleted (deleteRequest deletes them already; this
 *    catches matches written concurrently).
 *
 * Fan-out is bounded: at most CANDIDATES_PER_KEY candidates per lookup key (newest first); a book
 * title has at most ~65 significant words (200 characters), a request at most three lookups.
 * Every write is idempotent (fixed keys; the match is stored under a transaction that checks the
 * request still exists and the book is still listed with the same date).
 */

import { toIsbn13 } from '#lib/books/isbn.ts';
import { normaliseCourse } from '#lib/books/text.ts';
import { claimMatchEmail } from '#lib/db/digests.ts';
import { isBookKey, isRequestKey } from '#lib/db/keys.ts';
import {
  candidateListedBooks,
  deleteMatchesOfBook,
  indexListedBook,
  type ListedBook,
  putMatch,
  unindexListedBook,
} from '#lib/db/matches.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { candidateRequests, deleteMatchesOfRequest, type RequestRecord } from '#lib/db/requests.ts';
import { matchContent } from '#lib/notifications/messages.ts';
import { notify } from '#lib/notifications/notify.ts';
import type { ChangeProcessor, Item, StreamChange } from '#lib/streams/types.ts';
import { matches } from './rule.ts';
import { significantWords } from './title-words.ts';

export const CANDIDATES_PER_KEY = 100;

/** The matcher's view of a listed book image, or null when the image is not a listed book. */
export function listedBookOf(image: Item | undefined): ListedBook | null {
  if (image?.status !== 0 || image.hidden === true) return null; // hidden by reports: not listed
  const b = image as BookRecord;
  return {
    bookId: b.id,
    name: b.name,
    course: b.course,
    courseNorm: normaliseCourse(b.course),
    ISBN: b.ISBN ? toIsbn13(b.ISBN) : null,
    words: significantWords(b.name),
    ownerId: b.ownerId,
    date: b.date,
  };
}

const sameListing = (a: ListedBook, b: ListedBook) =>
  a.date === b.date &&
  a.name === b.name &&
  a.courseNorm === b.courseNorm &&
  a.ISBN === b.ISBN &&
  a.ownerId === b.ownerId;

/** Stores the match and tells the requester (once per book listing, however many requests match). */
async function recordMatch(request: RequestRecord, book: ListedBook, now: string): Promise<void> {
  const stored = await putMatch({
    userId: request.userId,
    requestId: request.id,
    bookId: book.bookId,
    bookDate: book.date,
    createdAt: now,
  });
  if (!stored) return; // the request was deleted or the book is no longer listed
  const content = matchContent(book);
  await notify({
    userId: request.userId,
    cause: `match#${book.bookId}#${book.date}`,
    kind: 'match',
    bookId: book.bookId,
    message: content.message,
    email: content.email,
    category: 'matches',
    // counted with the notification, once per requester and listing (a redelivered record or the
    // request's and the book's records both finding the pair count nothing more)
    event: 'Matches',
    // a relisted book does not e-mail the same requester again within 7 days (in-app still does)
    emailGate: () => claimMatchEmail(request.userId, book.bookId, book.date, new Date()),
  });
}

/**
 * Runs `work` for every item even when some fail (an SES error, a claim still held): one
 * requester's failure never costs another requester their match or notification. The first
 * failure is rethrown at the end, so the stream retries the record; the parts already done are
 * idempotent (conditional puts, the e-mail state machine).
 */
async function eachIndependently<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  const failures: unknown[] = [];
  for (const item of items) {
    try {
      await work(item);
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length > 0) throw failures[0];
}

async function onBookChange(change: StreamChange): Promise<void> {
  const before = listedBookOf(change.oldImage);
  const after = listedBookOf(change.newImage);
  if (before && after && sameListing(before, after)) return; // e.g. a price change
  if (before) {
    await unindexListedBook(before);
    await deleteMatchesOfBook(before.bookId);
  }
  if (after) {
    await indexListedBook(after);
    const now = new Date().toISOString();
    const requests = await candidateRequests(
      { isbn: after.ISBN, courseNorm: after.courseNorm, words: after.words },
      CANDIDATES_PER_KEY,
    );
    await eachIndependently(
      requests.filter((r) => matches(r, after)),
      (r) => recordMatch(r, after, now),
    );
  }
}

async function onRequestChange(change: StreamChange): Promise<void> {
  if (change.eventName === 'REMOVE') {
    const old = change.oldImage as RequestRecord | undefined;
    if (old) await deleteMatchesOfRequest(old.userId, old.id);
    return;
  }
  if (change.eventName !== 'INSERT' || !change.newImage) return;
  const r = change.newImage as RequestRecord;
  const books = await candidateListedBooks(
    { isbn: r.ISBN, courseNorm: r.courseNorm, keyWord: r.keyWord },
    CANDIDATES_PER_KEY,
  );
  const now = new Date().toISOString();
  await eachIndependently(
    books.filter((b) => matches(r, b)),
    (b) => recordMatch(r, b, now),
  );
}

export const matchingProcessor: ChangeProcessor = {
  name: 'matching',
  wants: (c) => isBookKey(c.keys) || isRequestKey(c.keys),
  apply: (c) => (isBookKey(c.keys) ? onBookChange(c) : onRequestChange(c)),
};
