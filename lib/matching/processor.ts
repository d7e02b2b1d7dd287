/**
 * The matcher, run by the stream consumer (functions/streams/processors.ts).
 *
 *  - A book that enters status 0 (posted, re-listed, purchase cancelled) is added to the
 *    listed-book index and matched against other users' open requests, found by Query on the
 *    request indexes: its ISBN, its course, and each significant word of its title (a request is
 *    indexed under its longest title word, which every title match must contain).
 *  - A book that leaves status 0 (or is deleted) leaves the index and its stored matches are
 *    deleted (getUserMatches already hides it, since it reads the books' current status).
 *  - A book bought (0 -> 1) closes its buyer's own requests that it answers (answered.ts).
 *  - A new request is matched against listed books by its ISBN, course and key word.
 *  - A deleted request's leftover matches are deleted (deleteRequest deletes them already; this
 *    catches matches written concurrently).
 *
 * A listed book is matched against ALL open requests of its lookups (ISBN, course, each title
 * word), a page of REQUESTS_PAGE at a time. When the consumer's time left falls below SCAN_RESERVE_MS
 * the position is saved (`MATCHSCAN#<bookId>` / `<bookDate>`) and the record ends; that write is a
 * stream record of its own, which carries the scan on from there (while the book is still listed
 * with the same date), so no timeout loses or repeats the rest. A new request still reads at most
 * CANDIDATES_PER_KEY listed books per lookup (newest first).
 * Every write is idempotent (fixed keys; the match is stored under a transaction that checks the
 * request still exists and the book is still listed with the same date).
 */

import { toIsbn13 } from '#lib/books/isbn.ts';
import { normaliseCourse } from '#lib/books/text.ts';
import { getBook } from '#lib/db/books.ts';
import { blocks } from '#lib/db/conversations.ts';
import { claimMatchEmail } from '#lib/db/digests.ts';
import { isBookKey, isMatchScanKey, isRequestKey } from '#lib/db/keys.ts';
import { listFieldsOf, sameListFields } from '#lib/db/list-fields.ts';
import {
  type BookNow,
  candidateListedBooks,
  deleteMatchesOfBook,
  endMatchScan,
  indexListedBook,
  type ListedBook,
  listedBooksNow,
  type MatchScanRecord,
  putMatch,
  rewriteMatchesOfBook,
  saveMatchScan,
  unindexListedBook,
} from '#lib/db/matches.ts';
import type { BookRecord } from '#lib/db/records.ts';
import {
  type CandidatePosition,
  candidateRequestsPage,
  deleteMatchesOfRequest,
  FIRST_CANDIDATE,
  type RequestRecord,
} from '#lib/db/requests.ts';
import { matchContent } from '#lib/notifications/messages.ts';
import { notify } from '#lib/notifications/notify.ts';
import type { Budget, ChangeProcessor, Item, StreamChange } from '#lib/streams/types.ts';
import { expiresAfter } from '#lib/values/expiry.ts';
import { closeAnsweredRequests } from './answered.ts';
import { matches } from './rule.ts';
import { significantWords } from './title-words.ts';

export const CANDIDATES_PER_KEY = 100;
/** Requests read per Query when a listed book is matched (a page of matches takes a few seconds at most). */
export const REQUESTS_PAGE = 50;
/** Below this much time left in the invocation (60 s in all), a scan saves its position and hands over. */
export const SCAN_RESERVE_MS = 8_000;
const SCAN_TTL_SECONDS = 7 * 86_400;

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
    campus: b.campus ?? null,
  };
}

const sameListing = (a: ListedBook, b: ListedBook) =>
  a.date === b.date &&
  a.name === b.name &&
  a.courseNorm === b.courseNorm &&
  a.ISBN === b.ISBN &&
  a.ownerId === b.ownerId &&
  a.campus === b.campus;

/**
 * Stores the match with the book's list fields and tells the requester (once per book listing,
 * however many requests match). False when it was not stored: the request was deleted, the book
 * is no longer listed with that date, or (with `sameValues`) its list fields changed meanwhile.
 * A requester who blocked the book's seller gets no match and no notification of it (one GetItem
 * of the block: the blocker does not see the blocked user's listings anywhere, docs/conversations.md).
 */
async function recordMatch(
  request: RequestRecord,
  book: ListedBook,
  fields: BookRecord,
  now: string,
  sameValues?: BookNow['sameValues'],
): Promise<boolean> {
  if (await blocks(request.userId, fields.ownerId)) return false;
  const stored = await putMatch(
    {
      userId: request.userId,
      requestId: request.id,
      bookId: book.bookId,
      bookDate: book.date,
      createdAt: now,
      book: fields,
    },
    sameValues,
  );
  if (!stored) return false;
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
  return true;
}

/** How often a match found from a request is tried again when its book changed between the read and the write. */
const FIELD_RACE_ATTEMPTS = 3;

/**
 * A match found from a request: stored with the book's fields as stored now, on the condition
 * that they are still its values (the book's own record may already have rewritten its other
 * matches); a change in between reads the book again.
 */
async function recordRequestMatch(
  request: RequestRecord,
  book: ListedBook,
  now: string,
  first: BookNow | undefined,
): Promise<void> {
  let current = first;
  for (let attempt = 0; attempt < FIELD_RACE_ATTEMPTS && current; attempt++) {
    if (await recordMatch(request, book, current.book, now, current.sameValues)) return;
    current = (await listedBooksNow([book.bookId])).get(book.bookId);
  }
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

/**
 * Matches a listed book against every candidate request from `from` on, page by page, each
 * requester independently (the first failure is rethrown at the end, for the stream to retry).
 * Hands over (saves the position) when time runs short; ends a saved scan when it finishes one.
 */
async function matchRequestsFrom(
  book: ListedBook,
  fields: BookRecord,
  from: CandidatePosition,
  budget: Budget,
): Promise<void> {
  const lookup = { isbn: book.ISBN, courseNorm: book.courseNorm, words: book.words, campus: book.campus };
  const now = new Date();
  const failures: unknown[] = [];
  let position: CandidatePosition | null = from;
  while (position) {
    if (budget.timeLeftMs() < SCAN_RESERVE_MS) {
      await saveMatchScan({
        bookId: book.bookId,
        bookDate: book.date,
        position,
        savedAt: now.toISOString(),
        ttl: expiresAfter(now, SCAN_TTL_SECONDS),
      });
      break;
    }
    const page = await candidateRequestsPage(lookup, position, REQUESTS_PAGE);
    try {
      await eachIndependently(
        page.items.filter((r) => matches(r, book)),
        async (r) => {
          await recordMatch(r, book, fields, now.toISOString());
        },
      );
    } catch (err) {
      failures.push(err);
    }
    position = page.next;
  }
  if (position === null && from !== FIRST_CANDIDATE) await endMatchScan(book.bookId, book.date);
  if (failures.length > 0) throw failures[0];
}

/** A saved scan: carries it on while its book is still listed with the same date, else drops it. */
async function onScanSaved(change: StreamChange, budget: Budget): Promise<void> {
  const scan = change.newImage as MatchScanRecord | undefined;
  if (!scan) return; // ended (deleted, or expired)
  const stored = (await getBook(scan.bookId)) as Item | null;
  const book = listedBookOf(stored ?? undefined);
  const fields = listFieldsOf(stored);
  if (!book || !fields || book.date !== scan.bookDate) return endMatchScan(scan.bookId, scan.bookDate);
  await matchRequestsFrom(book, fields, scan.position, budget);
}

async function onBookChange(change: StreamChange, budget: Budget): Promise<void> {
  const before = listedBookOf(change.oldImage);
  const after = listedBookOf(change.newImage);
  const fields = listFieldsOf(change.newImage);
  if (before && after && sameListing(before, after)) {
    // e.g. a price change: the same matches, showing the new fields
    if (fields && !sameListFields(listFieldsOf(change.oldImage), fields)) {
      await rewriteMatchesOfBook(after.bookId, fields);
    }
    return;
  }
  if (before) {
    // bought: the buyer's own requests for this book are answered
    const bought = change.newImage as BookRecord | undefined;
    if (bought?.status === 1 && bought.buyerId) await closeAnsweredRequests(bought, bought.buyerId);
    await unindexListedBook(before);
    await deleteMatchesOfBook(before.bookId);
  }
  if (after && fields) {
    await indexListedBook(after);
    await matchRequestsFrom(after, fields, FIRST_CANDIDATE, budget);
  }
}

async function onRequestChange(change: StreamChange): Promise<void> {
  if (change.eventName === 'REMOVE') {
    const old = change.oldImage as RequestRecord | undefined;
    if (old) await deleteMatchesOfRequest(old.userId, old.id);
    return;
  }
  if (!change.newImage) return;
  // a new request (a request's matching fields never change)
  if (change.eventName !== 'INSERT') return;
  const r = change.newImage as RequestRecord;
  const books = await candidateListedBooks(
    { isbn: r.ISBN, courseNorm: r.courseNorm, keyWord: r.keyWord, campus: r.campus ?? null },
    CANDIDATES_PER_KEY,
  );
  const now = new Date().toISOString();
  const matched = books.filter((b) => matches(r, b));
  const stored = await listedBooksNow(matched.map((b) => b.bookId));
  await eachIndependently(matched, (b) => recordRequestMatch(r, b, now, stored.get(b.bookId)));
}

export const matchingProcessor: ChangeProcessor = {
  name: 'matching',
  wants: (c) => isBookKey(c.keys) || isRequestKey(c.keys) || isMatchScanKey(c.keys),
  apply: (c, budget = { timeLeftMs: () => Number.POSITIVE_INFINITY }) => {
    if (isBookKey(c.keys)) return onBookChange(c, budget);
    if (isMatchScanKey(c.keys)) return onScanSaved(c, budget);
    return onRequestChange(c);
  },
};
