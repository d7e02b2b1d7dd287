/**
 * Requests repository: a user's wanted books, and the candidate lookups the matcher uses.
 */

import { deleteQueried } from '#lib/table/batch.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { QueryCommand } from '#lib/table/commands.ts';
import { queryAll } from '#lib/table/page.ts';
import { refusalOf, TransactionRefused, tag, tagAll, transactWrite } from '#lib/table/transact.ts';
import { boundedUserCounterItem, counterItems } from './counters.ts';
import {
  fitsKey,
  INDEX,
  matchesOfRequestPrefix,
  REQUEST_SK_PREFIX,
  requestIndexes,
  requestKey,
  requestsByCoursePk,
  requestsByIsbnPk,
  requestsByWordPk,
  userPartition,
} from './keys.ts';

/** USER#<uid> / REQUEST#<id>, plus requestIndexes(...) attributes */
export interface RequestRecord {
  type: 'request';
  id: string;
  userId: string;
  name: string;
  course: string;
  courseNorm: string;
  edition: number | null;
  /** ISBN-13 digits, or null */
  ISBN: string | null;
  /** significant title words (lib/matching/title-words.ts) */
  words: string[];
  /** the word the request is indexed under for title matching, or null */
  keyWord: string | null;
  createdAt: string;
  /** the requester's campus: only books of that campus match (absent when the requester has none) */
  campus?: string | null;
}

/** A user may have at most this many open requests (bounds getRequests and the matcher's fan-out). */
export const MAX_OPEN_REQUESTS = 100;

export type PutRequestOutcome = 'created' | 'too-many';

/** Stores a new request and counts it in the user's openRequests, in one transaction. */
export async function putRequest(r: RequestRecord): Promise<PutRequestOutcome> {
  const outcome = await transactWrite([
    tag('request', {
      Put: {
        TableName: TABLE,
        Item: {
          ...requestKey(r.userId, r.id),
          ...requestIndexes({
            id: r.id,
            createdAt: r.createdAt,
            isbn: r.ISBN,
            courseNorm: r.courseNorm,
            keyWord: r.keyWord,
            campus: r.campus,
          }),
          ...r,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }),
    tag('limit', boundedUserCounterItem(r.userId, 'openRequests', 1, MAX_OPEN_REQUESTS)),
  ]);
  if (outcome.ok) return 'created';
  if (refusalOf(outcome, 'limit')) return 'too-many';
  throw new TransactionRefused(outcome.refused);
}

/** A user's requests, newest first (at most MAX_OPEN_REQUESTS, so one or two pages). */
export async function listRequests(userId: string): Promise<RequestRecord[]> {
  return (await queryAll(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': userPartition(userId), ':prefix': REQUEST_SK_PREFIX },
      ScanIndexForward: false,
    },
    MAX_OPEN_REQUESTS * 2,
  )) as RequestRecord[];
}

/**
 * Deletes one of the user's own requests and uncounts it, in one transaction. False when the
 * user has no such request (another user's id looks exactly like a missing one).
 */
export async function deleteRequestRecord(userId: string, requestId: string): Promise<boolean> {
  const outcome = await transactWrite([
    tag('request', {
      Delete: {
        TableName: TABLE,
        Key: requestKey(userId, requestId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    }),
    ...tagAll('stats', counterItems({ users: [{ userId, deltas: { openRequests: -1 } }] })),
  ]);
  if (outcome.ok) return true;
  if (refusalOf(outcome, 'request')) return false;
  throw new TransactionRefused(outcome.refused);
}

/** Deletes every match of one request (a key prefix in the requester's partition); returns how many. */
export async function deleteMatchesOfRequest(userId: string, requestId: string): Promise<number> {
  return deleteQueried({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': userPartition(userId),
      ':prefix': matchesOfRequestPrefix(requestId),
    },
    ConsistentRead: true,
  });
}

/** Where a read of a book's candidate requests stands: the lookup it is on and the start key in it. */
export interface CandidatePosition {
  /** index into the book's lookups (ISBN, course, then each title word) */
  lookup: number;
  /** the Query's start key in that lookup (null: its beginning) */
  startKey: Record<string, unknown> | null;
}
export const FIRST_CANDIDATE: CandidatePosition = { lookup: 0, startKey: null };

/** The request indexes to read for a book: its ISBN, its course and each title word. */
function requestLookups(book: CandidateLookup) {
  const lookups: Array<{ index: string; pk: string }> = [];
  const c = book.campus;
  if (book.isbn) lookups.push({ index: INDEX.gsi1, pk: requestsByIsbnPk(book.isbn, c) });
  if (book.courseNorm) lookups.push({ index: INDEX.gsi2, pk: requestsByCoursePk(book.courseNorm, c) });
  for (const w of book.words) if (fitsKey(w)) lookups.push({ index: INDEX.gsi3, pk: requestsByWordPk(w, c) });
  return lookups;
}

/** What a book's candidate requests are looked up by: of its campus only. */
export interface CandidateLookup {
  isbn: string | null;
  courseNorm: string;
  words: readonly string[];
  campus: string | null;
}

/**
 * One page (one Query, newest first) of the open requests that could match a book, from `position`;
 * `next` is where the following page starts, null once every lookup has been read to its end.
 */
export async function candidateRequestsPage(
  book: CandidateLookup,
  position: CandidatePosition,
  limit: number,
): Promise<{ items: RequestRecord[]; next: CandidatePosition | null }> {
  const lookups = requestLookups(book);
  const lookup = lookups[position.lookup];
  if (!lookup) return { items: [], next: null };
  const page = await db.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: lookup.index,
      KeyConditionExpression: `${lookup.index}pk = :pk`,
      ExpressionAttributeValues: { ':pk': lookup.pk },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: position.startKey ?? undefined,
    }),
  );
  const items = ((page.Items ?? []) as RequestRecord[]).filter((i) => i.type === 'request');
  let next: CandidatePosition | null = page.LastEvaluatedKey
    ? { lookup: position.lookup, startKey: page.LastEvaluatedKey }
    : { lookup: position.lookup + 1, startKey: null };
  if (next.lookup >= lookups.length) next = null;
  return { items, next };
}

/**
 * The open requests of one campus that name one course, as who asked: one Query of the course's
 * request partition (gsi2 `REQ#<campus>#C#<courseNorm>`, where a request lives while it is open and
 * which the matcher reads anyway) projecting only the requester. Its cost is the size of that
 * course's requests (about 300 bytes each: 0.5 read units for the first 13 or so), never the
 * table's; past 1 MB (thousands of requests) it answers the first 1 MB's, a lower bound.
 */
export async function requestersOfCourse(courseNorm: string, campus: string): Promise<string[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: INDEX.gsi2,
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': requestsByCoursePk(courseNorm, campus) },
      ProjectionExpression: 'userId',
    }),
  );
  return (out.Items ?? []).map((i) => String(i.userId));
}
