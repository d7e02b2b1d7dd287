/**
 * Books repository: every read is a GetItem, a Query on a key or index, or a BatchGet; every
 * status move is one TransactWriteItems that also moves the counters, conditioned on the book's
 * owner and current status.
 *
 * Access patterns:
 *  - a book by id                                  GetItem BOOK#<id> / BOOK
 *  - listed books, newest first                    Query gsi1 BOOKS#S0, backwards
 *  - an owner's books, newest first                Query gsi2 OWNER#<id>, backwards
 *  - listed books of one search term, newest first Query SEARCH#<term>, backwards
 *  - which of some books are in a user's cart      BatchGet USER#<id> / CART#<bookId>
 */

import type { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, type QueryCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { ConditionGrade } from '#lib/books/conditions.ts';
import { batchGet, batchWrite } from './batch.ts';
import { db, TABLE } from './client.ts';
import { isConditionFailed } from './conditions.ts';
import { counterItems, type Deltas } from './counters.ts';
import {
  bookIndexes,
  bookKey,
  booksByStatusPk,
  cartItemKey,
  INDEX,
  type ItemKey,
  searchTermPk,
  timeSortKey,
  userKey,
} from './keys.ts';
import { type BookRecord, BookStatus, type BookStatusValue, upgradeBook } from './records.ts';
import { refusalOf, type TransactItem, TransactionRefused, tag, tagAll, transactWrite } from './transact.ts';

/** Why a conditional write on a book failed. */
export class BookWriteRefused extends Error {
  override name = 'BookWriteRefused';
  constructor(readonly current: BookRecord | undefined) {
    super('book write condition failed');
  }
}

const stripKeys = (item: Record<string, unknown>): BookRecord => {
  const { pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, gsi3pk, gsi3sk, ...rest } = item;
  return upgradeBook(rest) as unknown as BookRecord;
};

/** The stored item of a book record: its key and index attributes. */
export const bookItem = (b: BookRecord) => ({ ...bookKey(b.id), ...bookIndexes(b), ...b });

/** A book by id (strongly consistent), or undefined. */
export async function getBook(bookId: string): Promise<BookRecord | undefined> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: bookKey(bookId), ConsistentRead: true }));
  return out.Item ? stripKeys(out.Item) : undefined;
}

/** A user's first name, for display on their books. */
export async function getUserFirstName(userId: string): Promise<string | undefined> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: userKey(userId), ProjectionExpression: 'firstName' }),
  );
  return out.Item?.firstName as string | undefined;
}

/** The counter moves of a book of `ownerId` (total, per status, the owner's active listings). */
function bookCounterItems(
  ownerId: string,
  moves: { total?: number; byStatus?: Partial<Record<number, number>>; active?: number },
): TransactItem[] {
  const global: Deltas = { totalBooks: moves.total ?? 0 };
  for (const [status, delta] of Object.entries(moves.byStatus ?? {})) {
    global[`books_s${status}`] = (global[`books_s${status}`] ?? 0) + (delta ?? 0);
  }
  return counterItems({
    global,
    users: [{ userId: ownerId, deltas: { activeListings: moves.active ?? 0 } }],
  });
}

/** Runs a transaction whose first item is the book; a failed condition -> BookWriteRefused. */
async function transactOnBook(bookId: string, book: TransactItem, counters: TransactItem[]): Promise<void> {
  const outcome = await transactWrite([tag('book', book), ...tagAll('stats', counters)]);
  if (outcome.ok) return;
  if (refusalOf(outcome, 'book')) throw new BookWriteRefused(await getBook(bookId));
  throw new TransactionRefused(outcome.refused);
}

/** A new listed book, with the counters (one transaction). */
export async function insertBook(book: BookRecord): Promise<void> {
  await transactOnBook(
    book.id,
    {
      Put: {
        TableName: TABLE,
        Item: bookItem(book),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    bookCounterItems(book.ownerId, {
      total: 1,
      byStatus: { [book.status]: 1 },
      active: book.status === BookStatus.Listed ? 1 : 0,
    }),
  );
}

const OWNED_IN_STATUS = 'attribute_exists(pk) AND ownerId = :owner AND #status = :from';

/**
 * Moves a book of `ownerId` from status `from` to `to` (0 <-> 5), refreshing the date when given,
 * with the counters, in one transaction. BookWriteRefused if it is not the owner's or not in `from`.
 */
export async function moveBookStatus(
  book: BookRecord,
  ownerId: string,
  to: BookStatusValue,
  newDate?: string,
): Promise<BookRecord> {
  const next: BookRecord = { ...book, status: to, date: newDate ?? book.date };
  const idx = bookIndexes(next);
  const active = (s: number) => (s === BookStatus.Listed ? 1 : 0);
  await transactOnBook(
    book.id,
    {
      Update: {
        TableName: TABLE,
        Key: bookKey(book.id),
        UpdateExpression:
          'SET #status = :to, #date = :date, gsi1pk = :g1pk, gsi1sk = :g1sk, gsi2pk = :g2pk, gsi2sk = :g2sk',
        ConditionExpression: OWNED_IN_STATUS,
        ExpressionAttributeNames: { '#status': 'status', '#date': 'date' },
        ExpressionAttributeValues: {
          ':owner': ownerId,
          ':from': book.status,
          ':to': to,
          ':date': next.date,
          ':g1pk': idx.gsi1pk,
          ':g1sk': idx.gsi1sk,
          ':g2pk': idx.gsi2pk,
          ':g2sk': idx.gsi2sk,
        },
      },
    },
    bookCounterItems(ownerId, {
      byStatus: { [book.status]: -1, [to]: 1 },
      active: active(to) - active(book.status),
    }),
  );
  return next;
}

/** Removes a book of `ownerId` for good if it is still in the status it was read in, with the counters. */
export async function removeBook(book: BookRecord, ownerId: string): Promise<void> {
  await transactOnBook(
    book.id,
    {
      Delete: {
        TableName: TABLE,
        Key: bookKey(book.id),
        ConditionExpression: OWNED_IN_STATUS,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':owner': ownerId, ':from': book.status },
      },
    },
    bookCounterItems(ownerId, {
      total: -1,
      byStatus: { [book.status]: -1 },
      active: book.status === BookStatus.Listed ? -1 : 0,
    }),
  );
}

/** Changes price/condition/comments of a book of `ownerId` in status 0 or 5; returns the new record. */
export async function updateBookDetails(
  bookId: string,
  ownerId: string,
  fields: { priceCents?: number; condition?: ConditionGrade; comments?: string },
): Promise<BookRecord> {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':owner': ownerId, ':s0': 0, ':s5': 5 };
  const sets: string[] = [];
  if (fields.priceCents !== undefined) names['#legacyPrice'] = 'price';
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    names[`#${k}`] = k;
    values[`:${k}`] = v;
    sets.push(`#${k} = :${k}`);
  }
  try {
    const out = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: bookKey(bookId),
        // A new price replaces the dollars a book not yet migrated may still hold.
        UpdateExpression: `SET ${sets.join(', ')}${fields.priceCents === undefined ? '' : ' REMOVE #legacyPrice'}`,
        ConditionExpression: 'attribute_exists(pk) AND ownerId = :owner AND #status IN (:s0, :s5)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return stripKeys(out.Attributes ?? {});
  } catch (err) {
    if (isConditionFailed(err)) {
      const old = (err as ConditionalCheckFailedException).Item;
      throw new BookWriteRefused(old ? stripKeys(unmarshallItem(old)) : undefined);
    }
    throw err;
  }
}

// The DocumentClient does not unmarshall the item of a failed condition.
const unmarshallItem = (item: NonNullable<ConditionalCheckFailedException['Item']>) => unmarshall(item);

export interface BookPage {
  books: BookRecord[];
  /** the sort key of the last item read (`<date>#<id>`), when more may follow */
  last: string | null;
}

/** A sort key position of a listing (gsi1/gsi2: `<date>#<id>`) back to an ExclusiveStartKey. */
const indexStartKey = (index: 'gsi1' | 'gsi2', pk: string, position: string): Record<string, string> => {
  const id = position.slice(position.lastIndexOf('#') + 1);
  return { ...bookKey(id), [`${index}pk`]: pk, [`${index}sk`]: position };
};

/** Extra items read per Query when the caller's own books are filtered out, so one read usually fills a page. */
export const OWN_BOOKS_SLACK = 10;

/**
 * Listed books, newest first, after `position`, leaving out `excludeOwner`'s: Queries gsi1 until
 * `limit` books are found, the listing ends, or `maxReads` Queries were made. With an owner to
 * leave out, each Query reads OWN_BOOKS_SLACK items more than needed and the page is cut at
 * `limit` (the position is then the last book kept), so a second Query happens only when more
 * than OWN_BOOKS_SLACK of the caller's own books fall inside one page.
 */
export async function listedBooks(options: {
  limit: number;
  after?: string;
  excludeOwner?: string;
  maxReads?: number;
}): Promise<BookPage> {
  const pk = booksByStatusPk(BookStatus.Listed);
  const books: BookRecord[] = [];
  let position = options.after;
  for (let read = 0; read < (options.maxReads ?? 3); read++) {
    const input: QueryCommandInput = {
      TableName: TABLE,
      IndexName: INDEX.gsi1,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ScanIndexForward: false,
      Limit: options.limit - books.length + (options.excludeOwner ? OWN_BOOKS_SLACK : 0),
      ...(position ? { ExclusiveStartKey: indexStartKey('gsi1', pk, position) } : {}),
    };
    if (options.excludeOwner && input.ExpressionAttributeValues) {
      input.FilterExpression = 'ownerId <> :me';
      input.ExpressionAttributeValues[':me'] = options.excludeOwner;
    }
    const out = await db.send(new QueryCommand(input));
    const items = (out.Items ?? []).map(stripKeys);
    const room = options.limit - books.length;
    if (items.length > room) {
      books.push(...items.slice(0, room));
      const lastKept = books[books.length - 1] as BookRecord;
      return { books, last: timeSortKey(lastKept.date, lastKept.id) };
    }
    books.push(...items);
    const lek = out.LastEvaluatedKey?.gsi1sk as string | undefined;
    if (!lek) return { books, last: null };
    position = lek;
    if (books.length >= options.limit) break;
  }
  return { books, last: position ?? null };
}

/**
 * The position after the first `skip` listed books, newest first: Select COUNT Queries (no items
 * returned; reads cost in proportion to `skip`, at most 10000 by the contract). Null when the
 * listing has `skip` books or fewer.
 */
export async function positionAfterListed(skip: number): Promise<string | null | undefined> {
  if (skip === 0) return undefined;
  const pk = booksByStatusPk(BookStatus.Listed);
  let left = skip;
  let start: Record<string, unknown> | undefined;
  while (left > 0) {
    const out = await db.send(
      new QueryCommand({
        TableName: TABLE,
        IndexName: INDEX.gsi1,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ScanIndexForward: false,
        Select: 'COUNT',
        Limit: left,
        ExclusiveStartKey: start,
      }),
    );
    left -= out.Count ?? 0;
    start = out.LastEvaluatedKey;
    if (!start) return null;
  }
  return (start?.gsi1sk as string | undefined) ?? null;
}

/** Books by id (one BatchGet per 100), as a map; missing books are absent. */
export async function booksByIds(ids: string[]): Promise<Map<string, BookRecord>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const items = await batchGet(unique.map(bookKey));
  return new Map(items.map((i) => [String(i.id), stripKeys(i)]));
}

/** Which of these books are in the user's cart (one BatchGet of the cart keys). */
export async function inCartIds(userId: string, bookIds: string[]): Promise<Set<string>> {
  if (bookIds.length === 0) return new Set();
  const items = await batchGet(
    [...new Set(bookIds)].map((id) => cartItemKey(userId, id)),
    { projection: 'sk' },
  );
  const prefix = cartItemKey(userId, '').sk;
  return new Set(items.map((i) => String(i.sk).slice(prefix.length)));
}

// ---------------------------------------------------------------------------------------------
// Search index entries (SEARCH#<term> / <date>#<bookId>)
// ---------------------------------------------------------------------------------------------

export interface SearchEntryPage {
  /** sort keys `<date>#<bookId>`, newest first */
  positions: string[];
  /** whether the term has more entries after the last one */
  more: boolean;
}

/** Entries of one term, newest first, after `position`. */
export async function searchEntries(term: string, limit: number, after?: string): Promise<SearchEntryPage> {
  const pk = searchTermPk(term);
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: 'sk',
      ScanIndexForward: false,
      Limit: limit,
      ...(after ? { ExclusiveStartKey: { pk, sk: after } } : {}),
    }),
  );
  return { positions: (out.Items ?? []).map((i) => String(i.sk)), more: Boolean(out.LastEvaluatedKey) };
}

/** Puts and deletes index entries (BatchWrite, 25 a call, retrying unprocessed ones). Idempotent. */
export async function writeSearchEntries(
  puts: Array<ItemKey & { bookId: string }>,
  deletes: ItemKey[],
): Promise<void> {
  await batchWrite([
    ...puts.map((p) => ({ PutRequest: { Item: { ...p, type: 'searchEntry' } } })),
    ...deletes.map((k) => ({ DeleteRequest: { Key: { pk: k.pk, sk: k.sk } } })),
  ]);
}
