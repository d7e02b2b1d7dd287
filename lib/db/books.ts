/**
 * Books repository: every read is a GetItem, a Query on a key or index, or a BatchGet; every
 * status move is one TransactWriteItems that also moves the counters, conditioned on the book's
 * owner and current status.
 *
 * Access patterns:
 *  - a book by id                                  GetItem BOOK#<id> / BOOK
 *  - listed books, newest first                    Query gsi1 BOOKS#S0#<n> (8 shards), backwards
 *  - listed books at an offset                     Query gsi1keys (keys only), then gsi1
 *  - an owner's books, newest first                Query gsi2 OWNER#<id>, backwards
 *  - listed books of search terms, newest first    Query SEARCH#<term> per term, backwards
 *  - listed books of search terms, by price        Query gsi4 SEARCHP#<term> per term
 *  - which of some books are in a user's cart      BatchGet USER#<id> / CART#<bookId>
 */

import type { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { batchGet, batchWrite } from '#lib/table/batch.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand, QueryCommand, UpdateCommand } from '#lib/table/commands.ts';
import { isConditionFailed } from '#lib/table/conditions.ts';
import {
  type CursorScope,
  cursorAfter,
  DatedPosition,
  gsi1Listing,
  type Item,
  indexPageAfter,
  indexResume,
  type Page,
  pagedList,
  pageFrom,
  positionOf,
  queryAfter,
  queryAll,
  queryGsi1Page,
  queryPages,
  stripKeys,
} from '#lib/table/page.ts';
import { placeInShards, readRange, readShards } from '#lib/table/sharded.ts';
import {
  refusalOf,
  type Tagged,
  type TransactItem,
  TransactionRefused,
  tag,
  tagAll,
  transactOrThrow,
  transactWrite,
} from '#lib/table/transact.ts';
import { setAttribute, updateIf } from '#lib/table/write-if.ts';
import type { ConditionGrade } from '#lib/values/condition.ts';
import * as z from '#lib/zod.ts';
import { type AuditRecord, auditPutOp, newAuditRecord } from './audit.ts';
import { counterItems, type Deltas, statusCounterDeltas } from './counters.ts';
import {
  allListingPks,
  bookIndexes,
  bookKey,
  booksByStatusPk,
  booksOfBuyerPk,
  booksOfOwnerPk,
  cartItemKey,
  INDEX,
  type ItemKey,
  listingKeyEntryBytes,
  listingPartitions,
  listingSortKey,
  priceListingPks,
  searchPricePk,
  searchTermPk,
  userKey,
} from './keys.ts';
import { entryChanges } from './list-fields.ts';
import { cancelOrderBookOp } from './orders.ts';
import { appendNoticeBooksOp } from './outbox.ts';
import { type BookRecord, BookStatus, type BookStatusValue, SOLD_STATUSES } from './records.ts';
import { clearReportsOps } from './reports.ts';

/** The most books a user may have listed (status 0) at once. */
export const MAX_LISTED_BOOKS = 200;

/** A listing refused because the owner already has MAX_LISTED_BOOKS listed books. */
export class ListingLimitReached extends Error {
  override name = 'ListingLimitReached';
}

/** Why a conditional write on a book failed (`current`: the book as stored now, or null if gone). */
export class BookWriteRefused extends Error {
  override name = 'BookWriteRefused';
  constructor(readonly current: BookRecord | null) {
    super('book write condition failed');
  }
}

/** A stored book without its keys. */
const stripBook = (item: Item): BookRecord => stripKeys<Item>(item) as unknown as BookRecord;

const toBook = (item: Record<string, unknown> | undefined): BookRecord | null =>
  item?.type === 'book' ? stripBook(item) : null;

/**
 * The status index attributes a book in `b`'s state has: what a status move SETs (gsi1, and gsi4
 * while listed) and REMOVEs (gsi4 once it leaves the listing). Every status move writes these.
 */
export function listingIndexMove(b: BookRecord): { set: Item; remove: string[] } {
  const idx = bookIndexes(b);
  const set: Item = { gsi1pk: idx.gsi1pk, gsi1sk: idx.gsi1sk };
  if ('gsi4pk' in idx) return { set: { ...set, gsi4pk: idx.gsi4pk, gsi4sk: idx.gsi4sk }, remove: [] };
  return { set, remove: ['gsi4pk', 'gsi4sk'] };
}

/** The stored item of a book record: its key and index attributes. */
export const bookItem = (b: BookRecord) => ({ ...bookKey(b.id), ...bookIndexes(b), ...b });

// ----- reads -----------------------------------------------------------------------------------

/** A book by id (strongly consistent), or null: the one way to read a book. */
export async function getBook(bookId: string): Promise<BookRecord | null> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: bookKey(bookId), ConsistentRead: true }));
  return toBook(out.Item);
}

/** Books by id (BatchGet, 100 a call; `consistent` for checkout), as a map; missing books are absent. */
export async function getBooks(
  ids: string[],
  options: { consistent?: boolean } = {},
): Promise<Map<string, BookRecord>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const items = await batchGet(unique.map(bookKey), { consistent: options.consistent });
  return new Map(
    items.flatMap((i) => {
      const book = toBook(i);
      return book ? [[book.id, book] as const] : [];
    }),
  );
}

// ----- owner writes ----------------------------------------------------------------------------

/** The counter moves of a book of `ownerId` (total, per status, the owner's active listings). */
function bookCounterItems(
  ownerId: string,
  moves: { total?: number; byStatus?: Partial<Record<number, number>>; active?: number },
): { stats: TransactItem[]; listings: TransactItem[] } {
  const global: Deltas = { totalBooks: moves.total ?? 0 };
  for (const [status, delta] of Object.entries(moves.byStatus ?? {})) {
    global[`books_s${status}`] = (global[`books_s${status}`] ?? 0) + (delta ?? 0);
  }
  return { stats: counterItems({ global }), listings: listingCounterItems(ownerId, moves.active ?? 0) };
}

/** The owner's activeListings move; a move up is capped at MAX_LISTED_BOOKS (a failed condition). */
const listingCounterItems = (ownerId: string, active: number): TransactItem[] =>
  counterItems(
    { users: [{ userId: ownerId, deltas: { activeListings: active } }] },
    { counter: 'activeListings', max: MAX_LISTED_BOOKS },
  );

/**
 * Runs a transaction whose first item is the book; a failed condition on it -> BookWriteRefused,
 * on the owner's listing cap -> ListingLimitReached.
 */
async function transactOnBook(
  bookId: string,
  book: TransactItem,
  counters: { stats: TransactItem[]; listings: TransactItem[] },
): Promise<void> {
  const outcome = await transactWrite([
    tag('book', book),
    ...tagAll('stats', counters.stats),
    ...tagAll('cap', counters.listings),
  ]);
  if (outcome.ok) return;
  if (refusalOf(outcome, 'cap')?.code === 'ConditionalCheckFailed') throw new ListingLimitReached();
  if (refusalOf(outcome, 'book')) throw new BookWriteRefused(await getBook(bookId));
  throw new TransactionRefused(outcome.refused);
}

const newBookPut = (book: BookRecord): TransactItem => ({
  Put: { TableName: TABLE, Item: bookItem(book), ConditionExpression: 'attribute_not_exists(pk)' },
});

const newBookCounters = (book: BookRecord) =>
  bookCounterItems(book.ownerId, {
    total: 1,
    byStatus: { [book.status]: 1 },
    active: book.status === BookStatus.Listed ? 1 : 0,
  });

/** The items of a new book's transaction: the book (only if absent), then its counters. */
export function insertBookItems(book: BookRecord): [TransactItem, ...TransactItem[]] {
  const counters = newBookCounters(book);
  return [newBookPut(book), ...counters.stats, ...counters.listings];
}

/** A new listed book, with the counters (one transaction). */
export async function insertBook(book: BookRecord): Promise<void> {
  await transactOnBook(book.id, newBookPut(book), newBookCounters(book));
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
  const move = listingIndexMove(next);
  const active = (s: number) => (s === BookStatus.Listed ? 1 : 0);
  const { Update: update } = updateBookOp(
    book.id,
    { from: book.status },
    { status: to, date: next.date, gsi2pk: idx.gsi2pk, gsi2sk: idx.gsi2sk, ...move.set },
    move.remove,
  ) as { Update: NonNullable<TransactItem['Update']> };
  await transactOnBook(
    book.id,
    {
      Update: {
        ...update,
        ConditionExpression: `${update.ConditionExpression} AND ownerId = :owner`,
        ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':owner': ownerId },
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

/** The fields of a book its owner may change while it is unsold (updateBook). */
export type BookDetails = Partial<
  Pick<
    BookRecord,
    | 'name'
    | 'edition'
    | 'course'
    | 'courseNorm'
    | 'ISBN'
    | 'priceCents'
    | 'condition'
    | 'author'
    | 'comments'
    | 'coverUrl'
  >
>;

/**
 * Changes any details of a book of `ownerId` in status 0 or 5 (one UpdateItem); returns the new
 * record. No key or index attribute depends on them: what is derived from them (search and price
 * entries, matches, the typo vocabulary) follows from the stream's old and new images.
 */
export async function updateBookDetails(
  bookId: string,
  ownerId: string,
  fields: BookDetails,
): Promise<BookRecord> {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':owner': ownerId, ':s0': 0, ':s5': 5 };
  const sets: string[] = [];
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
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk) AND ownerId = :owner AND #status IN (:s0, :s5)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return stripBook(out.Attributes ?? {});
  } catch (err) {
    if (isConditionFailed(err)) {
      const old = (err as ConditionalCheckFailedException).Item;
      throw new BookWriteRefused(old ? toBook(unmarshallItem(old)) : null);
    }
    throw err;
  }
}

// The DocumentClient does not unmarshall the item of a failed condition.
const unmarshallItem = (item: NonNullable<ConditionalCheckFailedException['Item']>) => unmarshall(item);

/** What a listing page may be narrowed to (API.md, Additions: condition, minPrice, maxPrice). */
export interface ListingFilters {
  conditions?: readonly ConditionGrade[];
  minCents?: number;
  maxCents?: number;
}

/** The most operands DynamoDB takes in one `IN`. */
const IN_OPERANDS = 100;

/**
 * The filter of a listing Query: never a book hidden by reports (lib/moderation), not the
 * caller's own nor those of the people the caller blocked, and the chosen conditions and price range. A filter runs after the read, so it
 * never changes what a page costs; a page may come out short, with a cursor to go on.
 */
function listingFilter(options: { excludeOwners?: readonly string[]; filters?: ListingFilters }) {
  const parts = ['attribute_not_exists(#hidden)'];
  const names: Record<string, string> = { '#hidden': 'hidden' };
  const values: Item = {};
  // the caller and the people they blocked (at most MAX_BLOCKS + 1: an IN takes 100 operands, so in groups)
  const owners = options.excludeOwners ?? [];
  for (let g = 0; g * IN_OPERANDS < owners.length; g++) {
    const keys = owners.slice(g * IN_OPERANDS, (g + 1) * IN_OPERANDS).map((id, i) => {
      values[`:me${g}_${i}`] = id;
      return `:me${g}_${i}`;
    });
    parts.push(keys.length === 1 ? `ownerId <> ${keys[0]}` : `NOT (ownerId IN (${keys.join(', ')}))`);
  }
  const f = options.filters ?? {};
  if (f.conditions && f.conditions.length > 0) {
    names['#condition'] = 'condition';
    const keys = f.conditions.map((c, i) => {
      values[`:c${i}`] = c;
      return `:c${i}`;
    });
    parts.push(`#condition IN (${keys.join(', ')})`);
  }
  if (f.minCents !== undefined) {
    parts.push('priceCents >= :minCents');
    values[':minCents'] = f.minCents;
  }
  if (f.maxCents !== undefined) {
    parts.push('priceCents <= :maxCents');
    values[':maxCents'] = f.maxCents;
  }
  return { expression: parts.join(' AND '), names, ...(Object.keys(values).length > 0 ? { values } : {}) };
}

/** A position inside a listing ordered by price: `<cents, 7 digits>#<ISO date>#<ULID>`. */
export const PricePosition = z
  .string()
  .check(z.regex(/^\d{7}#\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z#[0-9A-HJKMNP-TV-Z]{26}$/));

/**
 * A position inside a listing ordered by date: `<ISO date>#<ULID>` (search entries, an owner's
 * books) or `<9 base-36 digits of the date>#<ULID>` (the date listings, keys.ts `listingSortKey`).
 */
export const Position = z
  .string()
  .check(z.regex(/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z|[0-9a-z]{9})#[0-9A-HJKMNP-TV-Z]{26}$/));

/**
 * What a page of books is read in: a campus (or all), filters, an order, and the caller's cursor
 * with the scope it is bound to (the caller names everything the page depends on in it).
 */
export interface PageRead {
  campus: string;
  limit: number;
  cursor?: string;
  scope: string;
  /** the caller's own books and those of the people they blocked */
  excludeOwners?: readonly string[];
  filters?: ListingFilters;
  byPrice?: 'asc' | 'desc';
}

/** The cursors of a page of books: its scope, and a position by price or by date. */
const browseCursors = (options: PageRead): CursorScope => ({
  scope: options.scope,
  position: options.byPrice ? PricePosition : Position,
});

/**
 * Listed books of one campus (or of every campus, `all`), newest first (or, with `byPrice`, by
 * price: the consumer's price listing entries, which carry the books' fields), after the cursor,
 * leaving out `excludeOwners`' books and narrowed by `filters`: one merged read of the listing's shards
 * (lib/table/sharded.ts), so a page costs the same whatever the number of books; it may be short
 * with `next` set.
 */
export async function listedBooks(options: PageRead): Promise<Page<BookRecord>> {
  const shards = options.byPrice
    ? { pks: priceListingPks(options.campus), forward: options.byPrice === 'asc' }
    : listingPartitions(options.campus);
  return pageFrom(browseCursors(options), options.cursor, async (after) => {
    const page = await readShards({ ...shards, filter: listingFilter(options) }, options.limit, after);
    return { items: page.items.map((i) => stripBook({ ...i, type: 'book' })), next: page.next };
  });
}

/** Puts (whole entries) and deletes the consumer's index entries (search, price; BatchWrite). Idempotent. */
export async function writeEntries(puts: Item[], deletes: ItemKey[]): Promise<void> {
  await batchWrite([
    ...puts.map((p) => ({ PutRequest: { Item: p } })),
    ...deletes.map((k) => ({ DeleteRequest: { Key: { pk: k.pk, sk: k.sk } } })),
  ]);
}

/** Writes what turns a book's index entries `before` into `after` (entryChanges); nothing when they are the same. */
export async function writeEntryChanges<E extends Item & ItemKey>(
  before: Map<string, E>,
  after: Map<string, E>,
): Promise<void> {
  const { puts, deletes } = entryChanges(before, after);
  if (puts.length + deletes.length > 0) await writeEntries(puts, deletes);
}

/**
 * Listed books of a campus (or of all) at positions [skip, skip + limit), newest first, hidden
 * books not counted: the positions come from the keys-only index over the listing's keys (merged
 * over its shards, lib/table/sharded.ts `placeInShards`), then only the page's books are read: the
 * key range from its first to its last, one Query per shard (docs/concurrency.md, "Bounded
 * skip"). The same calls for any page: S keys-only Queries (rarely a second round for some
 * shards), then S Queries of the page.
 */
export async function listedBooksAt(campus: string, skip: number, limit: number): Promise<BookRecord[]> {
  const { index, keysIndex, pks } = listingPartitions(campus);
  const filter = listingFilter({});
  const placed = await placeInShards(
    {
      index: keysIndex,
      keys: index,
      pks,
      filter,
      projection: `${index}sk`,
      // the longest partition key of the listing: a size a little over is safe, under is not
      entryBytes: Math.max(...pks.map((pk) => listingKeyEntryBytes(index, pk))),
    },
    skip,
    limit,
  );
  const [first, last] = [placed[0], placed.at(-1)];
  if (first === undefined || last === undefined) return [];
  const items = await readRange({ index, pks, filter }, { from: first, to: last });
  return items.slice(0, limit).map((i) => stripBook(i));
}

/** An owner's books in the given statuses, newest first (every page of gsi2 OWNER#<id>). */
export async function booksOfOwner(ownerId: string, statuses: number[]): Promise<BookRecord[]> {
  const values: Record<string, unknown> = { ':pk': booksOfOwnerPk(ownerId) };
  statuses.forEach((s, i) => {
    values[`:s${i}`] = s;
  });
  const items = await queryAll({
    IndexName: INDEX.gsi2,
    KeyConditionExpression: 'gsi2pk = :pk',
    FilterExpression: `#status IN (${statuses.map((_, i) => `:s${i}`).join(', ')})`,
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  });
  return items.map((i) => stripBook(i));
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

// ----- dashboard: listings by status and the admin's moves ---------------------------------------

/** Books of one status by listing date, oldest first, a page at a time (gsi1 `BOOKS#S<status>`). */
export async function listBooksByStatus(
  status: number,
  limit: number,
  cursor: string | undefined,
): Promise<Page<BookRecord>> {
  if (status === BookStatus.Listed) {
    // the listing of every campus, sharded: one merged read, oldest first
    const listing = gsi1Listing(booksByStatusPk(status), bookKey);
    const page = await readShards(
      { index: INDEX.gsi1, pks: allListingPks(), forward: true },
      limit,
      positionOf(listing, cursor),
    );
    return { items: page.items.map((i) => stripBook(i)), next: cursorAfter(listing, page.next) };
  }
  return queryGsi1Page(booksByStatusPk(status), bookKey, { limit, cursor, forward: true }, (i) =>
    i.type === 'book' ? stripBook(i) : undefined,
  );
}

/**
 * Bought books (status 1) bought at or before `cutoff`, one page of gsi1 `BOOKS#S1` read oldest
 * listing first from `after` (a raw position). The partition's sort key is the listing date, which
 * is never after the purchase, so the key condition `< cutoff` bounds the read to books listed
 * before it and the filter keeps those bought before it: the stuck-purchase job, never a Scan.
 */
export async function listBoughtBefore(
  cutoff: string,
  limit: number,
  after: string | undefined,
): Promise<Page<BookRecord>> {
  const partition = booksByStatusPk(BookStatus.Bought);
  const resume = indexResume('gsi1', partition, bookKey);
  const page = await queryAfter(
    resume,
    {
      IndexName: INDEX.gsi1,
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :cutoff',
      FilterExpression: 'boughtAt <= :cutoff',
      ExpressionAttributeValues: { ':pk': partition, ':cutoff': cutoff },
      ScanIndexForward: true,
    },
    limit,
    after,
  );
  return { items: page.items.map((i) => stripBook(i)), next: page.next };
}

/** Stale listings counted per shard at most by `countStaleListings` (8 shards: 20,000 in all). */
export const STALE_COUNT_PER_SHARD = 2500;

/**
 * How many status-0 books were listed before `cutoff`: one COUNT Query per shard of the keys-only
 * index gsi1keys (`gsi1sk < listingSortKey(cutoff)`, ~100-byte entries), in parallel, each stopped
 * after `perShard` entries. `more` is true when a shard had more: `count` is then a lower bound.
 * At most 8 Queries of at most `perShard` entries whatever the size of the market.
 */
export async function countStaleListings(
  cutoff: string,
  perShard = STALE_COUNT_PER_SHARD,
): Promise<{ count: number; more: boolean }> {
  // the date part of the key is fixed-width, so `sk < prefix` is exactly "listed before cutoff"
  const before = listingSortKey(cutoff, '').slice(0, -1);
  const results = await Promise.all(
    allListingPks().map((pk) =>
      db.send(
        new QueryCommand({
          TableName: TABLE,
          IndexName: INDEX.gsi1keys,
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :before',
          ExpressionAttributeValues: { ':pk': pk, ':before': before },
          Select: 'COUNT',
          Limit: perShard,
        }),
      ),
    ),
  );
  return {
    count: results.reduce((n, r) => n + (r.Count ?? 0), 0),
    more: results.some((r) => r.LastEvaluatedKey !== undefined),
  };
}

/** How many merged reads one page of stale listings may take. */
const STALE_PAGE_ROUNDS = 4;

/**
 * Status-0 books listed before `cutoff`, oldest first, one merged page of the listing's shards
 * (gsi1 `BOOKS#S0#<n>` by date; `next` is the position to go on from). The index is eventually
 * consistent: callers re-check each book with a conditional write.
 */

export async function listStaleListings(
  cutoff: string,
  limit: number,
  after: string | undefined,
): Promise<Page<BookRecord>> {
  // A merged read of the shards may stop short of `limit` (at the least advanced shard with more):
  // a few more rounds fill the page, so a page is `limit` books whatever the shards hold.
  const items: Item[] = [];
  let last: string | null = after ?? null;
  for (let round = 0; round < STALE_PAGE_ROUNDS && items.length < limit; round++) {
    const page = await readShards(
      { index: INDEX.gsi1, pks: allListingPks(), forward: true },
      limit - items.length,
      last ?? undefined,
    );
    items.push(...page.items);
    last = page.next;
    if (last === null) break;
  }
  const books = items.filter((i) => i.type === 'book').map((i) => stripBook(i));
  const stale = books.filter((b) => b.date < cutoff);
  // oldest first: once a book is not stale, none after it is
  const done = last === null || stale.length < books.length;
  return { items: stale, next: done ? null : last };
}

/**
 * A conditional update of a book: only while it exists with status `from` (and, when given, while
 * its listing date is before `dateBefore`). SETs and REMOVEs the given attributes.
 */
function updateBookOp(
  bookId: string,
  condition: { from: number; dateBefore?: string },
  set: Item,
  remove: string[] = [],
): TransactItem {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Item = { ':from': condition.from };
  const sets = Object.entries(set).map(([name, value], i) => {
    names[`#s${i}`] = name;
    values[`:s${i}`] = value;
    return `#s${i} = :s${i}`;
  });
  const removes = remove.map((name, i) => {
    names[`#r${i}`] = name;
    return `#r${i}`;
  });
  let cond = 'attribute_exists(pk) AND #status = :from';
  if (condition.dateBefore !== undefined) {
    names['#date'] = 'date';
    values[':before'] = condition.dateBefore;
    cond += ' AND #date < :before';
  }
  return {
    Update: {
      TableName: TABLE,
      Key: bookKey(bookId),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: cond,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * One admin move of one book, atomically: the book update (conditional on its status), the audit
 * entry and the counters. TransactionRefused when the book changed meanwhile.
 */
async function moveBookWithAudit(args: {
  bookOp: TransactItem;
  audit: AuditRecord;
  globalDeltas: Deltas;
  userDeltas: Array<{ userId: string; deltas: Deltas }>;
  extra?: TransactItem[];
}): Promise<void> {
  await transactOrThrow([
    tag('book', args.bookOp),
    tag('audit', auditPutOp(args.audit)),
    ...tagAll('stats', counterItems({ global: args.globalDeltas, users: args.userDeltas })),
    ...tagAll('extra', args.extra ?? []),
  ]);
}

/** Shows a kept book's owner under `name` (the book stays for its buyer's history). */
export async function renameBookOwner(bookId: string, name: string): Promise<void> {
  await updateIf(setAttribute(bookKey(bookId), 'ownerFirstName', name));
}

// ----- named status moves of admins and jobs: one audited transaction each, with the counters ----

/** Who moves a book, when, and why: the stamp of the move's audit entry. */
export interface MoveStamp {
  actor: string;
  at: string;
  reason: string | null;
}

/** A forward hand-over move of a bought book, from the status it was read in to `to`. */
async function handOver(
  book: BookRecord,
  to: BookStatusValue,
  action: 'confirmBook' | 'setBookPaid',
  stamp: MoveStamp,
  userDeltas: Array<{ userId: string; deltas: Deltas }>,
): Promise<BookRecord> {
  // the step's time, for the order's timeline (lib/orders/history.ts getOrder)
  const dated = action === 'confirmBook' ? { verifiedAt: stamp.at } : { deliveredAt: stamp.at };
  const moved: BookRecord = { ...book, status: to, ...dated };
  const move = listingIndexMove(moved);
  await moveBookWithAudit({
    bookOp: updateBookOp(
      book.id,
      { from: book.status },
      { status: to, statusChangedAt: stamp.at, ...dated, ...move.set },
      move.remove,
    ),
    audit: newAuditRecord({
      at: stamp.at,
      actor: stamp.actor,
      action,
      target: { kind: 'book', id: book.id },
      before: { status: book.status },
      after: { status: to },
      reason: stamp.reason,
    }),
    globalDeltas: statusCounterDeltas(book.status, to),
    userDeltas,
  });
  return moved;
}

/** confirmBook: a bought book's condition verified and its buyer charged (Bought -> Verified). */
export const verifyPurchase = (book: BookRecord, stamp: MoveStamp): Promise<BookRecord> =>
  handOver(book, BookStatus.Verified, 'confirmBook', stamp, []);

/** setBookPaid: delivered and the seller paid (Verified -> Paid), crediting the seller's moneyMade. */
export const settlePurchase = (book: BookRecord, stamp: MoveStamp): Promise<BookRecord> =>
  handOver(book, BookStatus.Paid, 'setBookPaid', stamp, [
    { userId: book.ownerId, deltas: { moneyMade: book.priceCents } },
  ]);

/**
 * cancelPurchase: a bought or verified book relisted with a fresh listing date, its purchase
 * undone. Reverses what checkout counted (buyer booksBought -1, seller booksSold -1 and
 * activeListings +1, grossSales - price, feesEarned - `feeCents`, the book's share of its order's
 * fee); the order keeps the book, listed in its `cancelledBookIds`.
 *
 * `sellerSuspended` (as read): the book goes to Unlisted instead, as suspending unlisted the
 * seller's other books (lib/moderation/suspension.ts), so nobody can buy it again. A relist checks
 * in the same transaction that the seller is still not suspended (TransactionRefused otherwise:
 * read again, and the move unlists).
 */
export async function relistCancelledPurchase(
  book: BookRecord,
  feeCents: number,
  stamp: MoveStamp,
  sellerSuspended = false,
): Promise<BookRecord> {
  const relisted: BookRecord = {
    ...book,
    status: sellerSuspended ? BookStatus.Unlisted : BookStatus.Listed,
    date: stamp.at,
    buyerId: null,
    boughtAt: null,
    orderId: null,
    verifiedAt: null,
    deliveredAt: null,
    cancelReason: stamp.reason,
  };
  const idx = bookIndexes(relisted);
  const move = listingIndexMove(relisted);
  await moveBookWithAudit({
    bookOp: updateBookOp(
      book.id,
      { from: book.status },
      {
        status: relisted.status,
        date: stamp.at,
        statusChangedAt: stamp.at,
        // the status notifications (lib/notifications/processor.ts) tell buyer and seller why
        cancelReason: stamp.reason,
        gsi2pk: idx.gsi2pk,
        gsi2sk: idx.gsi2sk,
        ...move.set,
      },
      [
        'buyerId',
        'boughtAt',
        'orderId',
        'feeCents',
        'stuckRemindedAt',
        // a later purchase of the book by someone else must not inherit this one's steps
        'verifiedAt',
        'deliveredAt',
        'gsi3pk',
        'gsi3sk',
        ...move.remove,
      ],
    ),
    audit: newAuditRecord({
      at: stamp.at,
      actor: stamp.actor,
      action: 'cancelPurchase',
      target: { kind: 'book', id: book.id },
      before: { status: book.status, buyerId: book.buyerId ?? null, orderId: book.orderId ?? null },
      after: { status: relisted.status, buyerId: null, orderId: null },
      reason: stamp.reason,
    }),
    globalDeltas: {
      ...statusCounterDeltas(book.status, relisted.status),
      grossSales: -book.priceCents,
      feesEarned: -feeCents,
    },
    userDeltas: [
      ...(book.buyerId ? [{ userId: book.buyerId, deltas: { booksBought: -1 } }] : []),
      { userId: book.ownerId, deltas: { booksSold: -1, activeListings: sellerSuspended ? 0 : 1 } },
    ],
    extra: [
      // the order keeps when and why (the book forgets its purchase once relisted)
      ...(book.orderId
        ? [
            cancelOrderBookOp(book.orderId, {
              bookId: book.id,
              at: stamp.at,
              verifiedAt: book.verifiedAt ?? null,
              reason: stamp.reason,
            }),
          ]
        : []),
      ...(sellerSuspended
        ? []
        : [
            {
              ConditionCheck: {
                TableName: TABLE,
                Key: userKey(book.ownerId),
                ConditionExpression: 'attribute_not_exists(suspended)',
              },
            },
          ]),
    ],
  });
  return relisted;
}

/**
 * The stuck-purchase job's reminder: marks a bought book as reminded (`stuckRemindedAt`), with its
 * audit entry, only while it is still the same purchase at status 1 and not reminded yet. False
 * when that condition failed (reminded already, or moved on): nothing written.
 */
export async function markStuckPurchaseReminded(book: BookRecord, stamp: MoveStamp): Promise<boolean> {
  const outcome = await transactWrite([
    tag('book', {
      Update: {
        TableName: TABLE,
        Key: bookKey(book.id),
        UpdateExpression: 'SET stuckRemindedAt = :at',
        ConditionExpression:
          '#status = :bought AND boughtAt = :boughtAt AND attribute_not_exists(stuckRemindedAt)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':at': stamp.at,
          ':bought': BookStatus.Bought,
          ':boughtAt': book.boughtAt ?? null,
        },
      },
    }),
    tag(
      'audit',
      auditPutOp(
        newAuditRecord({
          at: stamp.at,
          actor: stamp.actor,
          action: 'remindStuckPurchase',
          target: { kind: 'book', id: book.id },
          before: { status: book.status, boughtAt: book.boughtAt ?? null },
          after: { status: book.status, stuckRemindedAt: stamp.at },
          reason: stamp.reason,
        }),
      ),
    ),
  ]);
  if (outcome.ok) return true;
  if (refusalOf(outcome, 'book')?.code === 'ConditionalCheckFailed') return false;
  throw new TransactionRefused(outcome.refused);
}

/**
 * suspendUser: a listed book of the suspended owner unlisted (Listed -> Unlisted);
 * TransactionRefused when it moved meanwhile.
 */
export async function unlistBookOfSuspendedOwner(book: BookRecord, stamp: MoveStamp): Promise<void> {
  const move = listingIndexMove({ ...book, status: BookStatus.Unlisted });
  await moveBookWithAudit({
    bookOp: updateBookOp(
      book.id,
      { from: BookStatus.Listed },
      { status: BookStatus.Unlisted, ...move.set },
      move.remove,
    ),
    audit: newAuditRecord({
      at: stamp.at,
      actor: stamp.actor,
      action: 'unlistBook',
      target: { kind: 'book', id: book.id },
      before: { status: BookStatus.Listed },
      after: { status: BookStatus.Unlisted },
      reason: stamp.reason,
    }),
    globalDeltas: statusCounterDeltas(BookStatus.Listed, BookStatus.Unlisted),
    userDeltas: [{ userId: book.ownerId, deltas: { activeListings: -1 } }],
  });
}

/**
 * resolveReport: the reports of a listed book seen so far cleared (conditioned on no new one), and
 * with `unlist` the book unlisted (Listed -> Unlisted), with the audit entry the moderator's
 * decision wrote and `extra` operations (a restore's reporter penalties). TransactionRefused when the book or its reports changed meanwhile.
 */
export async function resolveBookReports(
  book: BookRecord,
  seen: number,
  unlist: boolean,
  audit: AuditRecord,
  extra: TransactItem[] = [],
): Promise<void> {
  const move = listingIndexMove({ ...book, status: BookStatus.Unlisted });
  const [bookOp, ...rest] = clearReportsOps(
    book.id,
    seen,
    unlist ? { status: BookStatus.Unlisted, ...move.set } : {},
    unlist ? move.remove : [],
  );
  await moveBookWithAudit({
    bookOp: bookOp as TransactItem,
    audit,
    globalDeltas: unlist ? statusCounterDeltas(BookStatus.Listed, BookStatus.Unlisted) : {},
    userDeltas: unlist ? [{ userId: book.ownerId, deltas: { activeListings: -1 } }] : [],
    extra: [...rest, ...extra],
  });
}

/** One run of the stale-listing job as its transactions see it: when, by whom, and each owner's notice. */
export interface UnlistRun {
  actor: string;
  at: string;
  /** when the sweeper sends a notice the run left open (it died before the end) */
  noticeDue: string;
  /** the outbox id of the run's notice to one owner */
  noticeId: (ownerId: string) => string;
}

/**
 * Unlists the given books that are still listed and dated before `cutoff` (Listed -> Unlisted), in
 * one transaction: the books, an audit entry each, the counters and each owner's notice of the
 * run. A book that changed meanwhile is dropped and the rest written again; answers those unlisted.
 */
export async function unlistStale(
  candidates: BookRecord[],
  cutoff: string,
  run: UnlistRun,
): Promise<BookRecord[]> {
  let books = candidates.filter((b) => b.status === BookStatus.Listed && b.date < cutoff);
  while (books.length > 0) {
    const outcome = await transactWrite(staleUnlistItems(books, cutoff, run));
    if (outcome.ok) return books;
    const failed = new Set(
      outcome.refused.flatMap((r) =>
        r.tag.startsWith('book:') && r.code === 'ConditionalCheckFailed' ? [r.tag.slice('book:'.length)] : [],
      ),
    );
    if (failed.size === 0) throw new TransactionRefused(outcome.refused);
    books = books.filter((b) => !failed.has(b.id));
  }
  return [];
}

function staleUnlistItems(books: BookRecord[], cutoff: string, run: UnlistRun): Tagged[] {
  const items: Tagged[] = books.map((b) => {
    const move = listingIndexMove({ ...b, status: BookStatus.Unlisted });
    return tag(
      `book:${b.id}`,
      updateBookOp(
        b.id,
        { from: BookStatus.Listed, dateBefore: cutoff },
        { status: BookStatus.Unlisted, statusChangedAt: run.at, ...move.set },
        move.remove,
      ),
    );
  });
  for (const b of books) {
    const audit = newAuditRecord({
      at: run.at,
      actor: run.actor,
      action: 'unlistBook',
      target: { kind: 'book', id: b.id },
      before: { status: BookStatus.Listed, date: b.date },
      after: { status: BookStatus.Unlisted },
      reason: `listed before ${cutoff}`,
    });
    items.push(tag('audit', auditPutOp(audit)));
  }
  const counters = counterItems({
    global: statusCounterDeltas(BookStatus.Listed, BookStatus.Unlisted, books.length),
    users: books.map((b) => ({ userId: b.ownerId, deltas: { activeListings: -1 } })),
  });
  items.push(...tagAll('stats', counters));
  const byOwner = new Map<string, BookRecord[]>();
  for (const b of books) byOwner.set(b.ownerId, [...(byOwner.get(b.ownerId) ?? []), b]);
  for (const [ownerId, owned] of byOwner) {
    const named = owned.map((b) => ({
      id: b.id,
      name: b.name,
      edition: b.edition,
      course: b.course,
      date: b.date,
    }));
    items.push(
      tag('notice', appendNoticeBooksOp(run.noticeId(ownerId), ownerId, named, run.at, run.noticeDue)),
    );
  }
  return items;
}

// ----- purchase history: books by buyer and books sold --------------------------------------------

/** Books bought by a user, newest purchase first (gsi3 `BUYER#<id>`), resuming after `after`. */
async function queryBooksOfBuyer(buyerId: string, limit: number, after?: string): Promise<Page<BookRecord>> {
  const page = await indexPageAfter('gsi3', booksOfBuyerPk(buyerId), bookKey, limit, after);
  return { items: page.items.map(asBook), next: page.next };
}

/** A user's books that were bought (status 1, 2 or 3), newest listing first; see queryBooksOfOwner. */
const queryBooksSoldBy = (ownerId: string, limit: number, after?: string, maxCalls = 3) =>
  queryBooksOfOwner(ownerId, [...SOLD_STATUSES], limit, after, maxCalls);

/**
 * A user's books in the given statuses, newest listing first (gsi2 `OWNER#<id>`, filtered by
 * status), resuming after `after`. The filter runs after the read, so this reads up to `maxCalls`
 * index pages to fill the page; a short page can still carry a cursor.
 */
export async function queryBooksOfOwner(
  ownerId: string,
  statuses: number[],
  limit: number,
  after?: string,
  maxCalls = 3,
): Promise<Page<BookRecord>> {
  const partition = booksOfOwnerPk(ownerId);
  const resume = indexResume('gsi2', partition, bookKey);
  const statusValues = Object.fromEntries(statuses.map((s, i) => [`:s${i}`, s]));
  const items: BookRecord[] = [];
  let position: string | undefined = after;
  for (let call = 0; call < maxCalls && items.length < limit; call++) {
    const out = await db.send(
      new QueryCommand({
        TableName: TABLE,
        IndexName: INDEX.gsi2,
        KeyConditionExpression: 'gsi2pk = :pk',
        FilterExpression: `#status IN (${Object.keys(statusValues).join(', ')})`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pk': partition, ...statusValues },
        ScanIndexForward: false,
        Limit: Math.max(limit - items.length, 25),
        ExclusiveStartKey: position === undefined ? undefined : resume.startKey(position),
      }),
    );
    for (const item of (out.Items ?? []).map(asBook)) {
      // The page filled up mid-batch: resume right after the last book returned.
      if (items.length === limit) return { items, next: bookIndexes(items.at(-1) as BookRecord).gsi2sk };
      items.push(item);
    }
    const last = out.LastEvaluatedKey?.gsi2sk;
    position = typeof last === 'string' ? last : undefined;
    if (!position) break;
  }
  return { items, next: position ?? null };
}

/** A stored book item in today's shape (price in cents, a condition grade), keys kept. */
const asBook = (item: Record<string, unknown>): BookRecord => item as unknown as BookRecord;

/** Books a user bought, newest purchase first, a page at a time (cursor bound to the buyer's list). */
export const listBooksBoughtBy = pagedList(
  (buyerId) => `purchasedBooks:${booksOfBuyerPk(buyerId)}`,
  DatedPosition,
  queryBooksOfBuyer,
);

/** A user's listed and unlisted books, newest listing first, a page at a time (cursor bound to the list). */
export const listPostsOf = pagedList(
  (ownerId) => `posts:${ownerId}`,
  Position,
  (ownerId, limit, after) =>
    queryBooksOfOwner(ownerId, [BookStatus.Listed, BookStatus.Unlisted], limit, after),
);

/** A user's books that were bought, newest listing first, a page at a time (cursor bound to the list). */
export const listBooksSoldBy = pagedList(
  (ownerId) => `soldBooks:${booksOfOwnerPk(ownerId)}`,
  DatedPosition,
  queryBooksSoldBy,
);

// ---------------------------------------------------------------------------------------------
// Search index entries (SEARCH#<term> / <date>#<bookId>, and by price on gsi4)
// ---------------------------------------------------------------------------------------------

/** One entry of a search page: the book's list fields. */
export interface SearchHit {
  bookId: string;
  book: BookRecord;
}

/**
 * One search page: the entries of the query's terms in a campus (or all), newest first or by
 * price, after the cursor, leaving out `excludeOwners`' books and narrowed by `filters` (a Query
 * filter: the read is the same). One Query per term, each for `limit + 1` entries, merged by sort
 * key (a book under two terms is taken once); a page may be short with `next` set. No terms: no
 * read, an empty page (the cursor is still checked).
 */
export async function searchPage(options: PageRead & { terms: string[] }): Promise<Page<SearchHit>> {
  const partitions = options.byPrice
    ? {
        index: INDEX.gsi4,
        pks: options.terms.map((t) => searchPricePk(t, options.campus)),
        forward: options.byPrice === 'asc',
      }
    : { pks: options.terms.map((t) => searchTermPk(t, options.campus)) };
  return pageFrom(browseCursors(options), options.cursor, async (after) => {
    const page = await readShards(
      {
        ...partitions,
        filter: listingFilter(options),
        perShard: options.limit + 1,
        distinct: true,
      },
      options.limit,
      after,
    );
    return { items: page.items.map(searchHitOf), next: page.next };
  });
}

/**
 * A position in a relevance search: `<tier>~` (the start of a tier) or `<tier>~<sk>` (after that
 * entry of the tier, the tier's own Position), so one cursor says where a page stands across tiers.
 */
export const TierPosition = z
  .string()
  .check(z.regex(/^\d~((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z)#[0-9A-HJKMNP-TV-Z]{26})?$/));

/** One tier of a relevance search: the terms it reads (or how to find them) and the books it keeps. */
export interface SearchTierRead {
  /** the terms, or a read that finds them (the typo tier's corrections), made only when reached */
  terms: string[] | (() => Promise<string[]>);
  /** whether a hit belongs to this tier (its best rank is the tier's); others are another tier's */
  keeps: (book: BookRecord) => boolean;
}

/**
 * One relevance page: the tiers in order, each newest first, keeping the hits that belong to it,
 * until `limit` books (a page may be short with `next` set). A tier is read like a search page
 * (one Query per term, `limit + 1` entries each, merged); a page moves on to the next tier only
 * when the tier is done, so it makes at most one read per tier: a fixed number of Queries
 * whatever the table's size. A tier with the same terms as the one before, which was read to its
 * end on this page, reads nothing again. The cursor holds the tier and the position in it (TierPosition).
 */
export async function searchRelevancePage(
  options: PageRead & { tiers: SearchTierRead[] },
): Promise<Page<SearchHit>> {
  return pageFrom({ scope: options.scope, position: TierPosition }, options.cursor, async (after) => {
    const [tierText, positionText] = (after ?? '0~').split('~') as [string, string];
    let tier = Number(tierText);
    let position: string | undefined = positionText || undefined;
    const hits: SearchHit[] = [];
    // the last tier's read when it reached the end of its terms: the next tier with the same terms
    // (title words, then author) takes its hits from it instead of reading the partitions again
    let complete: { terms: string; entries: Item[] } | null = null;
    while (tier < options.tiers.length) {
      const want = options.limit - hits.length;
      const current = options.tiers[tier] as SearchTierRead;
      const terms = typeof current.terms === 'function' ? await current.terms() : current.terms;
      if (complete && complete.terms === terms.join('\n') && position === undefined) {
        const kept = complete.entries.filter((e) => current.keeps(searchHitOf(e).book));
        hits.push(...kept.slice(0, want).map(searchHitOf));
        if (kept.length > want) {
          const last = kept[want - 1] as Item;
          return { items: hits, next: `${tier}~${String(last.sk)}` };
        }
      } else {
        const page =
          terms.length === 0
            ? { items: [], next: null }
            : await readShards(
                {
                  pks: terms.map((t) => searchTermPk(t, options.campus)),
                  filter: listingFilter(options),
                  perShard: want + 1,
                  distinct: true,
                },
                want,
                position,
              );
        for (const hit of page.items.map(searchHitOf)) if (current.keeps(hit.book)) hits.push(hit);
        if (page.next) return { items: hits, next: `${tier}~${page.next}` };
        complete = position === undefined ? { terms: terms.join('\n'), entries: page.items } : null;
      }
      tier += 1;
      position = undefined;
      if (hits.length >= options.limit) break;
    }
    return { items: hits, next: tier < options.tiers.length ? `${tier}~` : null };
  });
}

/** A search entry read as the hit of its book (the entry carries the book's list fields). */
const searchHitOf = (i: Item): SearchHit => ({
  bookId: String(i.bookId),
  // the entry carries the book's list fields: read as the book (stripBook's copy is ours to retag)
  book: Object.assign(stripBook(i), { type: 'book' as const }),
});

/**
 * Whether a user has a purchase in progress (a book at status 1 or 2) as its seller (gsi2) or its
 * buyer (gsi3): every page of both indexes until one is found, ids and status only.
 */
export async function hasPurchaseInProgress(userId: string): Promise<boolean> {
  const lookups = [
    { index: INDEX.gsi2, key: 'gsi2pk', pk: booksOfOwnerPk(userId), party: 'ownerId' },
    { index: INDEX.gsi3, key: 'gsi3pk', pk: booksOfBuyerPk(userId), party: 'buyerId' },
  ];
  for (const l of lookups) {
    for await (const page of queryPages({
      IndexName: l.index,
      KeyConditionExpression: `${l.key} = :pk`,
      FilterExpression: '#status IN (:bought, :verified) AND #party = :user',
      ProjectionExpression: 'id',
      ExpressionAttributeNames: { '#status': 'status', '#party': l.party },
      ExpressionAttributeValues: {
        ':pk': l.pk,
        ':bought': BookStatus.Bought,
        ':verified': BookStatus.Verified,
        ':user': userId,
      },
    })) {
      if (page.length > 0) return true;
    }
  }
  return false;
}
