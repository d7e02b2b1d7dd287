/**
 * Matching repository: the index of listed books kept by the stream consumer, and the stored
 * matches of books to requests.
 */

import { batchDelete, batchGet, batchWrite, deleteQueried } from '#lib/table/batch.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { PutCommand } from '#lib/table/commands.ts';
import { indexPartition, queryAll, queryPages } from '#lib/table/page.ts';
import { refusalOf, TransactionRefused, tag, transactWrite } from '#lib/table/transact.ts';
import { setAttribute, updateIf } from '#lib/table/write-if.ts';
import {
  bookKey,
  fitsKey,
  INDEX,
  type ItemKey,
  listedBookCoursePk,
  listedBookIsbnPk,
  listedBookKey,
  listedBookWordPk,
  matchesOfBookPk,
  matchesOfUserPk,
  matchIndexes,
  matchKey,
  matchScanKey,
  requestKey,
} from './keys.ts';
import { listFieldsOf, sameValuesCondition } from './list-fields.ts';
import type { BookRecord } from './records.ts';
import type { CandidatePosition } from './requests.ts';

/** What the matcher needs of a listed book. */
export interface ListedBook {
  bookId: string;
  name: string;
  course: string;
  courseNorm: string;
  /** ISBN-13 or null */
  ISBN: string | null;
  words: string[];
  ownerId: string;
  date: string;
  /** the book's campus (null for a book without one): its entries are in that campus's keys */
  campus: string | null;
}

/** LB#... / <date>#<bookId>: one entry of the listed-book index */
export interface ListedBookEntry extends ListedBook {
  type: 'listedBook';
}

/** The keys of a listed book's index entries: its ISBN, its course and each significant title word. */
export function listedBookKeys(
  b: Pick<ListedBook, 'bookId' | 'date' | 'ISBN' | 'courseNorm' | 'words' | 'campus'>,
): ItemKey[] {
  const pks: string[] = [];
  if (b.ISBN) pks.push(listedBookIsbnPk(b.ISBN, b.campus));
  if (b.courseNorm) pks.push(listedBookCoursePk(b.courseNorm, b.campus));
  for (const w of b.words) if (fitsKey(w)) pks.push(listedBookWordPk(w, b.campus));
  return pks.map((pk) => listedBookKey(pk, b.date, b.bookId));
}

/** Adds a listed book to the index (idempotent: same keys, same content). */
export async function indexListedBook(b: ListedBook): Promise<void> {
  const entry: ListedBookEntry = { type: 'listedBook', ...b };
  await batchWrite(listedBookKeys(b).map((k) => ({ PutRequest: { Item: { ...k, ...entry } } })));
}

/** Removes a book's entries from the index (idempotent). */
export async function unindexListedBook(
  b: Pick<ListedBook, 'bookId' | 'date' | 'ISBN' | 'courseNorm' | 'words' | 'campus'>,
) {
  await batchDelete(listedBookKeys(b));
}

/** Listed books that could match a request: by its ISBN, its course and its key word, newest first. */
export async function candidateListedBooks(
  r: { isbn: string | null; courseNorm: string; keyWord: string | null; campus: string | null },
  perKeyLimit: number,
): Promise<ListedBook[]> {
  const pks: string[] = [];
  if (r.isbn) pks.push(listedBookIsbnPk(r.isbn, r.campus));
  if (r.courseNorm) pks.push(listedBookCoursePk(r.courseNorm, r.campus));
  if (r.keyWord) pks.push(listedBookWordPk(r.keyWord, r.campus));
  const found = new Map<string, ListedBook>();
  for (const pk of pks) {
    const newest = {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ScanIndexForward: false,
    };
    for (const item of (await queryAll(newest, perKeyLimit)) as ListedBookEntry[]) {
      found.set(item.bookId, {
        bookId: item.bookId,
        name: item.name,
        course: item.course,
        courseNorm: item.courseNorm,
        ISBN: item.ISBN,
        words: item.words,
        ownerId: item.ownerId,
        date: item.date,
        campus: item.campus ?? null,
      });
    }
  }
  return [...found.values()];
}

/** USER#<uid> / MATCH#<requestId>#<bookId>, plus matchIndexes(...) attributes */
export interface MatchRecord {
  type: 'match';
  userId: string;
  requestId: string;
  bookId: string;
  /** the listing date of the book when matched (orders getUserMatches) */
  bookDate: string;
  createdAt: string;
  /**
   * the book's list fields (lib/db/list-fields.ts), kept in step by the consumer, so
   * getUserMatches reads no book
   */
  book: BookRecord;
}

/**
 * Stores a match, only while the request still exists and the book is still listed with that
 * listing date (both checked in the same transaction, so a deleted request or a sold book never
 * gains a match). Idempotent. False when one of the checks failed.
 */
export async function putMatch(
  m: Omit<MatchRecord, 'type'>,
  sameValues?: ReturnType<typeof sameValuesCondition>,
): Promise<boolean> {
  const outcome = await transactWrite([
    tag('request', {
      ConditionCheck: {
        TableName: TABLE,
        Key: requestKey(m.userId, m.requestId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    }),
    tag('book', {
      ConditionCheck: {
        TableName: TABLE,
        Key: bookKey(m.bookId),
        // with `sameValues`: also while the book still has the list fields the match carries
        ConditionExpression: `#status = :listed AND #date = :date${sameValues ? ` AND ${sameValues.expression}` : ''}`,
        ExpressionAttributeNames: { '#status': 'status', '#date': 'date', ...sameValues?.names },
        ExpressionAttributeValues: { ':listed': 0, ':date': m.bookDate, ...sameValues?.values },
      },
    }),
    tag('match', {
      Put: {
        TableName: TABLE,
        Item: {
          ...matchKey(m.userId, m.requestId, m.bookId),
          ...matchIndexes(m),
          type: 'match',
          ...m,
        },
      },
    }),
  ]);
  if (outcome.ok) return true;
  if (refusalOf(outcome, 'request') || refusalOf(outcome, 'book')) return false;
  throw new TransactionRefused(outcome.refused);
}

/** Deletes every stored match of a book (gsi3), e.g. when it leaves status 0. */
export async function deleteMatchesOfBook(bookId: string): Promise<number> {
  return deleteQueried({
    IndexName: INDEX.gsi3,
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': matchesOfBookPk(bookId) },
  });
}

/**
 * Copies a book's new list fields onto each of its stored matches (gsi3 `BOOKMATCH#<bookId>`):
 * one UpdateItem per match, only while the match exists (a deleted request's match stays gone).
 * Costs one write per stored match, as many as the matching that stored them.
 */
export async function rewriteMatchesOfBook(bookId: string, book: BookRecord): Promise<number> {
  let rewritten = 0;
  for await (const page of queryPages({
    IndexName: INDEX.gsi3,
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': matchesOfBookPk(bookId) },
    ProjectionExpression: 'pk, sk',
  })) {
    const keys = page as ItemKey[];
    for (let i = 0; i < keys.length; i += 10) {
      await Promise.all(keys.slice(i, i + 10).map((k) => setMatchBook(k, book)));
    }
    rewritten += keys.length;
  }
  return rewritten;
}

async function setMatchBook(key: ItemKey, book: BookRecord): Promise<void> {
  // a match removed meanwhile stays removed
  await updateIf(setAttribute(key, 'book', book));
}

/** A listed book as stored now: its list fields and the condition that they still are. */
export interface BookNow {
  book: BookRecord;
  sameValues: ReturnType<typeof sameValuesCondition>;
}

/**
 * Books as stored now (strongly consistent BatchGet), for matches found from a request: each
 * listed, visible one with its list fields and the condition that they are still its values.
 */
export async function listedBooksNow(bookIds: string[]): Promise<Map<string, BookNow>> {
  if (bookIds.length === 0) return new Map();
  const items = await batchGet(bookIds.map(bookKey), { consistent: true });
  return new Map(
    items.flatMap((raw) => {
      const book = listFieldsOf(raw);
      return book ? [[book.id, { book, sameValues: sameValuesCondition(raw) }] as const] : [];
    }),
  );
}

/** A user's matches, newest book first (gsi2), at most `limit` of them. */
export async function listMatchesOfUser(userId: string, limit: number): Promise<MatchRecord[]> {
  return (await queryAll(indexPartition('gsi2', matchesOfUserPk(userId)), limit)) as MatchRecord[];
}

/** MATCHSCAN#<bookId> / <bookDate>: where the matcher stopped reading a listing's candidate requests. */
export interface MatchScanRecord {
  type: 'matchScan';
  bookId: string;
  bookDate: string;
  position: CandidatePosition;
  savedAt: string;
  /** epoch seconds: a scan nobody carries on (the book changed) is dropped by the TTL */
  ttl: number;
}

/** Saves where a scan stopped (a new stream record carries it on). */
export async function saveMatchScan(r: Omit<MatchScanRecord, 'type'>): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: { ...matchScanKey(r.bookId, r.bookDate), type: 'matchScan', ...r },
    }),
  );
}

/** Ends a listing's scan (its item goes, if there was one). */
export async function endMatchScan(bookId: string, bookDate: string): Promise<void> {
  await batchDelete([matchScanKey(bookId, bookDate)]);
}
