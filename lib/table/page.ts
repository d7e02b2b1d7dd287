/**
 * Paged reads, one rule for all: a paged access pattern takes the caller's opaque `cursor` and
 * answers a `Page<T>` whose `next` is the cursor of the following page (null at the end). The
 * cursor is the last item's sort key, MAC-bound to the listing it came from (lib/table/cursor.ts), so
 * it cannot be forged or used on another listing; a bad one is a BadRequest. Cursors are turned
 * into positions and back only here (`pageFrom`, `queryPage`): the domains pass them through, and
 * only name the scope a cursor is bound to (e.g. a search's terms, campus, filters and sort).
 */

import * as z from '#lib/zod.ts';
import { db, TABLE } from './client.ts';
import { type NativeAttributeValue, QueryCommand, type QueryCommandInput } from './commands.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { INDEX, type ItemKey } from './schema.ts';

/**
 * One page of a listing; `next` says where the following page starts, or null at the end. What
 * lib/db answers outside it holds an opaque cursor there; its own position reads (and the walks
 * that never leave the service: export, deletion) hold the raw position, the last sort key read.
 */
export interface Page<T> {
  items: T[];
  next: string | null;
}

export type Item = Record<string, NativeAttributeValue>;

/** Where a page's cursors are valid, and what a position in it looks like. */
export interface CursorScope {
  /**
   * the MAC scope of the cursors: the listing and everything bound to it (e.g. `dashboard:USERS`,
   * or a campus, filters and sort), so a cursor reused anywhere else is a BadRequest
   */
  scope: string;
  /** the shape of a position (a sort key value) */
  position: z.ZodMiniType<string>;
}

/** Where a listing lives and how a position in it turns back into a start key. */
export interface Listing extends CursorScope {
  /** the sort key attribute of the queried key or index (`sk`, `gsi1sk`, ...) */
  sortKey: string;
  /** the full start key (table key and index key) of the item at `position` */
  startKey: (position: string) => Item;
}

/** The position a cursor points at (undefined without a cursor); BadRequest for a bad cursor. */
export const positionOf = (at: CursorScope, cursor: string | undefined): string | undefined =>
  cursor === undefined ? undefined : decodeCursor(at.scope, cursor, at.position);

/** The cursor of the page after the item at `position` (null when there is none). */
export const cursorAfter = (at: CursorScope, position: string | null | undefined): string | null =>
  position ? encodeCursor(at.scope, position) : null;

/**
 * A page of any read that resumes after a position: the caller's cursor turned into the position,
 * `read` from there, and the position it stopped at turned into the next cursor. Every paged
 * access pattern meets cursors here (or through queryPage), never in the domains.
 */
export async function pageFrom<T>(
  at: CursorScope,
  cursor: string | undefined,
  read: (after: string | undefined) => Promise<Page<T>>,
): Promise<Page<T>> {
  const page = await read(positionOf(at, cursor));
  return { items: page.items, next: cursorAfter(at, page.next) };
}

/** Where a position read resumes: the sort key its `next` holds, and the full start key of a position. */
export type Resume = Pick<Listing, 'sortKey' | 'startKey'>;

/**
 * One Query of `limit` items after the item at position `after` (none: from the start), answering
 * in `next` the raw position it stopped at: the position reads beneath pageFrom, and the walks that
 * never leave the service.
 */
export async function queryAfter<T = Item>(
  at: Resume,
  query: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>,
  limit: number,
  after: string | undefined,
): Promise<Page<T>> {
  const out = await db.send(
    new QueryCommand({
      ...query,
      TableName: TABLE,
      Limit: limit,
      ExclusiveStartKey: after ? at.startKey(after) : undefined,
    }),
  );
  const last = out.LastEvaluatedKey?.[at.sortKey];
  return { items: (out.Items ?? []) as T[], next: typeof last === 'string' ? last : null };
}

/** One page of a table partition `pk` in sort key order, after the item with sort key `after`. */
export const partitionPage = <T = Item>(
  pk: string,
  limit: number,
  after: string | undefined,
): Promise<Page<T>> =>
  queryAfter<T>(
    { sortKey: 'sk', startKey: (sk) => ({ pk, sk }) },
    { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } },
    limit,
    after,
  );

/**
 * One Query of a listing, `limit` items after the cursor's position. `query` gives the key
 * condition (and index, direction, filter); `map` turns stored items into records (items it maps
 * to undefined are left out).
 */
export const queryPage = <T>(
  listing: Listing,
  query: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>,
  limit: number,
  cursor: string | undefined,
  map: (item: Item) => T | undefined,
): Promise<Page<T>> =>
  pageFrom(listing, cursor, async (after) => {
    const page = await queryAfter(listing, query, limit, after);
    return {
      items: page.items.flatMap((i) => {
        const mapped = map(i);
        return mapped === undefined ? [] : [mapped];
      }),
      next: page.next,
    };
  });

/**
 * The paged access pattern over a position read of one list (a user's, a buyer's):
 * `(id, limit, cursor)`, its cursors bound to the list's scope, `scopeOf(id)`.
 */
export const pagedList =
  <T>(
    scopeOf: (id: string) => string,
    position: z.ZodMiniType<string>,
    read: (id: string, limit: number, after: string | undefined) => Promise<Page<T>>,
  ) =>
  (id: string, limit: number, cursor: string | undefined): Promise<Page<T>> =>
    pageFrom({ scope: scopeOf(id), position }, cursor, (after) => read(id, limit, after));

/**
 * Every page of a Query, one after another, for the walks that read a whole (small or bounded)
 * collection. With `max`, each ask is for what is still missing (`Limit`) and the walk stops
 * once that many items were read.
 */
export async function* queryPages(
  query: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>,
  max?: number,
): AsyncGenerator<Item[]> {
  let start: Item | undefined;
  let read = 0;
  do {
    const out = await db.send(
      new QueryCommand({
        ...query,
        TableName: TABLE,
        ...(max === undefined ? {} : { Limit: max - read }),
        ExclusiveStartKey: start,
      }),
    );
    const items = out.Items ?? [];
    read += items.length;
    yield items;
    start = out.LastEvaluatedKey;
  } while (start && (max === undefined || read < max));
}

/** Every item a Query finds (at most `max`), page after page: see queryPages. */
export async function queryAll(
  query: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>,
  max?: number,
): Promise<Item[]> {
  const all: Item[] = [];
  for await (const items of queryPages(query, max)) all.push(...items);
  return all;
}

const INDEX_ATTRS = new Set([
  'pk',
  'sk',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
  'gsi4pk',
  'gsi4sk',
]);

/**
 * A stored item without its key and index attributes: the record. Copied field by field rather
 * than spread and `delete`d: a deletion turns an object into a slow dictionary, and every listed
 * book of a page comes through here (a share of the listing routes' overhead over their floor).
 */
export function stripKeys<T>(item: Item): T {
  const copy: Item = {};
  for (const key of Object.keys(item)) if (!INDEX_ATTRS.has(key)) copy[key] = item[key];
  return copy as T;
}

/** A time-ordered position: the sort key `<ISO time>#<id>` of the last item of the previous page. */
export const TimePosition = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z#[A-Za-z0-9_-]{1,64}$/));

/** A dated position of a user's history (books, orders): the sort key `<ISO date>#<id>` of the last item shown. */
export const DatedPosition = z
  .string()
  .check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z#[A-Za-z0-9_-]{1,64}$/));

export type IndexName = 'gsi1' | 'gsi2' | 'gsi3' | 'gsi4';

/** The Query of one partition of an index, newest (highest sort key) first unless `forward`. */
export const indexPartition = (index: IndexName, partition: string, forward = false) => ({
  IndexName: INDEX[index],
  KeyConditionExpression: `${index}pk = :pk`,
  ExpressionAttributeValues: { ':pk': partition },
  ScanIndexForward: forward,
});

/**
 * How a read of an index partition ordered by `<time>#<id>` resumes after a position; `keyOf`
 * gives the table key of the item with that id.
 */
export const indexResume = (index: IndexName, partition: string, keyOf: (id: string) => ItemKey): Resume => ({
  sortKey: `${index}sk`,
  startKey: (position) => ({
    ...keyOf(position.slice(position.lastIndexOf('#') + 1)),
    [`${index}pk`]: partition,
    [`${index}sk`]: position,
  }),
});

/**
 * One page of an index partition ordered by `<time>#<id>`, newest first, after the position
 * `after` (one Query): `indexResume` and `indexPartition` of one partition together.
 */
export const indexPageAfter = <T = Item>(
  index: IndexName,
  partition: string,
  keyOf: (id: string) => ItemKey,
  limit: number,
  after: string | undefined,
): Promise<Page<T>> =>
  queryAfter<T>(indexResume(index, partition, keyOf), indexPartition(index, partition), limit, after);

/**
 * A gsi1 partition ordered by `<time>#<id>` as a listing of the dashboard (scope
 * `dashboard:<partition>`); `keyOf` gives the table key of the item with that id.
 */
export const gsi1Listing = (partition: string, keyOf: (id: string) => ItemKey): Listing => ({
  scope: `dashboard:${partition}`,
  position: TimePosition,
  ...indexResume('gsi1', partition, keyOf),
});

/** One page of a gsi1 listing, oldest first (`forward`) or newest first. */
export const queryGsi1Page = <T>(
  partition: string,
  keyOf: (id: string) => ItemKey,
  page: { limit: number; cursor: string | undefined; forward: boolean },
  map: (item: Item) => T | undefined,
): Promise<Page<T>> =>
  queryPage(
    gsi1Listing(partition, keyOf),
    indexPartition('gsi1', partition, page.forward),
    page.limit,
    page.cursor,
    map,
  );
