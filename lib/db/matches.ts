/**
 * Matching repository: the index of listed books kept by the stream consumer, and the stored
 * matches of books to requests.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchDelete, batchWrite, deleteQueried } from './batch.ts';
import { db, TABLE } from './client.ts';
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
  requestKey,
} from './keys.ts';
import { refusalOf, TransactionRefused, tag, transactWrite } from './transact.ts';

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
}

/** LB#... / <date>#<bookId>: one entry of the listed-book index */
export interface ListedBookEntry extends ListedBook {
  type: 'listedBook';
}

/** The keys of a listed book's index entries: its ISBN, its course and each significant title word. */
export function listedBookKeys(
  b: Pick<ListedBook, 'bookId' | 'date' | 'ISBN' | 'courseNorm' | 'words'>,
): ItemKey[] {
  const pks: string[] = [];
  if (b.ISBN) pks.push(listedBookIsbnPk(b.ISBN));
  if (b.courseNorm) pks.push(listedBookCoursePk(b.courseNorm));
  for (const w of b.words) if (fitsKey(w)) pks.push(listedBookWordPk(w));
  return pks.map((pk) => listedBookKey(pk, b.date, b.bookId));
}

/** Adds a listed book to the index (idempotent: same keys, same content). */
export async function indexListedBook(b: ListedBook): Promise<void> {
  const entry: ListedBookEntry = { type: 'listedBook', ...b };
  await batchWrite(listedBookKeys(b).map((k) => ({ PutRequest: { Item: { ...k, ...entry } } })));
}

/** Removes a book's entries from the index (idempotent). */
export async function unindexListedBook(
  b: Pick<ListedBook, 'bookId' | 'date' | 'ISBN' | 'courseNorm' | 'words'>,
) {
  await batchDelete(listedBookKeys(b));
}

/** Listed books that could match a request: by its ISBN, its course and its key word, newest first. */
export async function candidateListedBooks(
  r: { isbn: string | null; courseNorm: string; keyWord: string | null },
  perKeyLimit: number,
): Promise<ListedBook[]> {
  const pks: string[] = [];
  if (r.isbn) pks.push(listedBookIsbnPk(r.isbn));
  if (r.courseNorm) pks.push(listedBookCoursePk(r.courseNorm));
  if (r.keyWord) pks.push(listedBookWordPk(r.keyWord));
  const found = new Map<string, ListedBook>();
  for (const pk of pks) {
    const page = await db.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ScanIndexForward: false,
        Limit: perKeyLimit,
      }),
    );
    for (const item of (page.Items ?? []) as ListedBookEntry[]) {
      found.set(item.bookId, {
        bookId: item.bookId,
        name: item.name,
        course: item.course,
        courseNorm: item.courseNorm,
        ISBN: item.ISBN,
        words: item.words,
        ownerId: item.ownerId,
        date: item.date,
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
}

/**
 * Stores a match, only while the request still exists and the book is still listed with that
 * listing date (both checked in the same transaction, so a deleted request or a sold book never
 * gains a match). Idempotent. False when one of the checks failed.
 */
export async function putMatch(m: Omit<MatchRecord, 'type'>): Promise<boolean> {
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
        ConditionExpression: '#status = :listed AND #date = :date',
        ExpressionAttributeNames: { '#status': 'status', '#date': 'date' },
        ExpressionAttributeValues: { ':listed': 0, ':date': m.bookDate },
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

/** A user's matches, newest book first (gsi2), at most `limit` of them. */
export async function listMatchesOfUser(userId: string, limit: number): Promise<MatchRecord[]> {
  const out: MatchRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: TABLE,
        IndexName: INDEX.gsi2,
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': matchesOfUserPk(userId) },
        ScanIndexForward: false,
        Limit: limit - out.length,
        ExclusiveStartKey: start,
      }),
    );
    out.push(...((page.Items ?? []) as MatchRecord[]));
    start = page.LastEvaluatedKey;
  } while (start && out.length < limit);
  return out;
}
