/**
 * Requests repository: a user's wanted books, and the candidate lookups the matcher uses.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { deleteQueried } from './batch.ts';
import { db, TABLE } from './client.ts';
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
import { refusalOf, TransactionRefused, tag, tagAll, transactWrite } from './transact.ts';

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
  const out: RequestRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': userPartition(userId), ':prefix': REQUEST_SK_PREFIX },
        ScanIndexForward: false,
        ExclusiveStartKey: start,
      }),
    );
    out.push(...((page.Items ?? []) as RequestRecord[]));
    start = page.LastEvaluatedKey;
  } while (start && out.length < MAX_OPEN_REQUESTS * 2);
  return out;
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

/** Open requests that could match a book, by the book's ISBN, course and each title word (GSIs). */
export async function candidateRequests(
  book: { isbn: string | null; courseNorm: string; words: readonly string[] },
  perKeyLimit: number,
): Promise<RequestRecord[]> {
  const lookups: Array<{ index: string; pk: string }> = [];
  if (book.isbn) lookups.push({ index: INDEX.gsi1, pk: requestsByIsbnPk(book.isbn) });
  if (book.courseNorm) lookups.push({ index: INDEX.gsi2, pk: requestsByCoursePk(book.courseNorm) });
  for (const w of book.words) if (fitsKey(w)) lookups.push({ index: INDEX.gsi3, pk: requestsByWordPk(w) });
  const found = new Map<string, RequestRecord>();
  for (const { index, pk } of lookups) {
    const page = await db.send(
      new QueryCommand({
        TableName: TABLE,
        IndexName: index,
        KeyConditionExpression: `${index}pk = :pk`,
        ExpressionAttributeValues: { ':pk': pk },
        ScanIndexForward: false,
        Limit: perKeyLimit,
      }),
    );
    for (const item of (page.Items ?? []) as RequestRecord[]) {
      if (item.type === 'request') found.set(`${item.userId}#${item.id}`, item);
    }
  }
  return [...found.values()];
}
