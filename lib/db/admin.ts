/**
 * The dashboard's repository: counters, user and book listings through indexes, batch reads of
 * users and books, and the transactions of admin moves (book transitions, role changes, unlisting),
 * each written together with its audit entry and the counters it moves.
 */
import {
  GetCommand,
  type NativeAttributeValue,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { decodeCursor, encodeCursor } from '#lib/db/cursor.ts';
import { Busy } from '#lib/errors.ts';
import { type AuditRecord, auditPutOp, type TransactItem } from './audit.ts';
import { batchGet } from './batch.ts';
import { db, TABLE } from './client.ts';
import { cancellationCodes } from './errors.ts';
import {
  bookKey,
  booksByStatusPk,
  globalStatsKey,
  INDEX,
  type ItemKey,
  orderKey,
  ordersByStatusPk,
  USERS_INDEX_PK,
  userKey,
  userStatsKey,
} from './keys.ts';
import type { BookRecord, UserRecord } from './records.ts';

type Item = Record<string, NativeAttributeValue>;
type Deltas = Record<string, number>;

const INDEX_ATTRS = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk'];

function strip<T>(item: Item): T {
  const copy: Item = { ...item };
  for (const a of INDEX_ATTRS) delete copy[a];
  return copy as T;
}

// ----- transactions ----------------------------------------------------------------------------

/** A cancelled transaction in which some condition failed; `codes` say which items. */
export class TransactionRefused extends Error {
  override name = 'TransactionRefused';
  constructor(readonly codes: string[]) {
    super(`transaction refused: ${codes.join(',')}`);
  }
}

const MAX_CONFLICT_RETRIES = 4;

/**
 * Runs a TransactWriteItems. Retries (with jittered back-off) when it lost only a race on a hot
 * item such as the global counters; throws TransactionRefused when a condition failed.
 */
export async function transact(items: TransactItem[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      if (codes.includes('ConditionalCheckFailed')) throw new TransactionRefused(codes);
      if (!codes.includes('TransactionConflict') || attempt >= MAX_CONFLICT_RETRIES) {
        throw codes.includes('TransactionConflict') ? new Busy() : err;
      }
      await new Promise((r) => setTimeout(r, 20 * 2 ** attempt + Math.random() * 20));
    }
  }
}

/** ADD of counters on one item (an item that does not exist yet starts at zero). */
export function addCountersOp(key: ItemKey, deltas: Deltas): TransactItem | null {
  const entries = Object.entries(deltas).filter(([, v]) => v !== 0);
  if (entries.length === 0) return null;
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const parts = entries.map(([name, delta], i) => {
    names[`#c${i}`] = name;
    values[`:c${i}`] = delta;
    return `#c${i} :c${i}`;
  });
  return {
    Update: {
      TableName: TABLE,
      Key: key,
      UpdateExpression: `ADD ${parts.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** The counter moves of a book changing status: books_s<from> -1, books_s<to> +1. */
export const statusCounterDeltas = (from: number, to: number, n = 1): Deltas => ({
  [`books_s${from}`]: -n,
  [`books_s${to}`]: n,
});

/**
 * A conditional update of a book: only while it exists with status `from` (and, when given, while
 * its listing date is before `dateBefore`). SETs and REMOVEs the given attributes.
 */
export function updateBookOp(
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

/** Marks one book of an order as cancelled (the order must exist). */
export function cancelOrderBookOp(orderId: string, bookId: string, at: string): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: orderKey(orderId),
      UpdateExpression: 'ADD cancelledBookIds :ids SET updatedAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':ids': new Set([bookId]), ':at': at },
    },
  };
}

/**
 * One admin move of one book, atomically: the book update (conditional on its status), the audit
 * entry and the counters. TransactionRefused when the book changed meanwhile.
 */
export async function moveBook(args: {
  bookOp: TransactItem;
  audit: AuditRecord;
  globalDeltas: Deltas;
  userDeltas: Array<{ userId: string; deltas: Deltas }>;
  extra?: TransactItem[];
}): Promise<void> {
  const ops: TransactItem[] = [args.bookOp, auditPutOp(args.audit)];
  const global = addCountersOp(globalStatsKey(), args.globalDeltas);
  if (global) ops.push(global);
  for (const u of mergeUserDeltas(args.userDeltas)) {
    const op = addCountersOp(userStatsKey(u.userId), u.deltas);
    if (op) ops.push(op);
  }
  ops.push(...(args.extra ?? []));
  await transact(ops);
}

/** One counter update per user (a transaction may not touch one item twice). */
export function mergeUserDeltas(list: Array<{ userId: string; deltas: Deltas }>) {
  const byUser = new Map<string, Deltas>();
  for (const { userId, deltas } of list) {
    const acc = byUser.get(userId) ?? {};
    for (const [k, v] of Object.entries(deltas)) acc[k] = (acc[k] ?? 0) + v;
    byUser.set(userId, acc);
  }
  return [...byUser].map(([userId, deltas]) => ({ userId, deltas }));
}

/** Changes a user's role from `from` to `to` with its audit entry; TransactionRefused otherwise. */
export async function changeRole(
  userId: string,
  from: number,
  to: number,
  audit: AuditRecord,
): Promise<void> {
  await transact([
    {
      Update: {
        TableName: TABLE,
        Key: userKey(userId),
        UpdateExpression: 'SET permissionType = :to',
        ConditionExpression: 'attribute_exists(pk) AND permissionType = :from',
        ExpressionAttributeValues: { ':from': from, ':to': to },
      },
    },
    auditPutOp(audit),
  ]);
}

// ----- reads -----------------------------------------------------------------------------------

/** The service-wide counters (absent counters are zero). */
export async function getGlobalStats(): Promise<Record<string, number>> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: globalStatsKey() }));
  const stats: Record<string, number> = {};
  for (const [k, v] of Object.entries(out.Item ?? {})) if (typeof v === 'number') stats[k] = v;
  return stats;
}

/** A book by id (strongly consistent), or null. */
export async function getBook(bookId: string): Promise<BookRecord | null> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: bookKey(bookId), ConsistentRead: true }));
  return out.Item?.type === 'book' ? strip<BookRecord>(out.Item) : null;
}

/** A user by id (strongly consistent), or null. */
export async function getUserRecord(userId: string): Promise<UserRecord | null> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: userKey(userId), ConsistentRead: true }));
  return out.Item?.type === 'user' ? strip<UserRecord>(out.Item) : null;
}

/** Users by id (missing ones are left out). */
export async function getUsersById(ids: string[]): Promise<Map<string, UserRecord>> {
  const items = await batchGet<Item>(ids.map(userKey));
  const map = new Map<string, UserRecord>();
  for (const i of items) if (i.type === 'user') map.set(String(i.id), strip<UserRecord>(i));
  return map;
}

/** Books by id (missing ones are left out). */
export async function getBooksById(ids: string[]): Promise<Map<string, BookRecord>> {
  const items = await batchGet<Item>(ids.map(bookKey));
  const map = new Map<string, BookRecord>();
  for (const i of items) if (i.type === 'book') map.set(String(i.id), strip<BookRecord>(i));
  return map;
}

export interface Page<T> {
  items: T[];
  next: string | null;
}

/** A page position: the sort key `<ISO time>#<id>` of the last item of the previous page. */
const Position = z.string().regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z#[A-Za-z0-9_-]{1,64}$/);

/**
 * One page of a gsi1 partition. The cursor is `lib/db/cursor.ts`'s: the last item's gsi1sk,
 * MAC-bound to this partition (`dashboard:<partition>`), so it cannot be forged or reused on
 * another list; the start key is rebuilt from it (`keyOf` gives the table key of the item's id).
 */
async function queryIndexPage(
  partition: string,
  keyOf: (id: string) => ItemKey,
  limit: number,
  cursor: string | undefined,
  forward: boolean,
): Promise<{ items: Item[]; next: string | null }> {
  const scope = `dashboard:${partition}`;
  let start: Item | undefined;
  if (cursor !== undefined) {
    const position = decodeCursor(scope, cursor, Position);
    start = { ...keyOf(position.slice(position.lastIndexOf('#') + 1)), gsi1pk: partition, gsi1sk: position };
  }
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: INDEX.gsi1,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': partition },
      ScanIndexForward: forward,
      Limit: limit,
      ExclusiveStartKey: start,
    }),
  );
  const last = out.LastEvaluatedKey?.gsi1sk;
  return { items: out.Items ?? [], next: typeof last === 'string' ? encodeCursor(scope, last) : null };
}

/** All users, oldest first, a page at a time (gsi1 `USERS`). */
export async function listUsers(limit: number, cursor: string | undefined): Promise<Page<UserRecord>> {
  const page = await queryIndexPage(USERS_INDEX_PK, userKey, limit, cursor, true);
  return {
    items: page.items.filter((i) => i.type === 'user').map((i) => strip<UserRecord>(i)),
    next: page.next,
  };
}

/** Books of one status by listing date, oldest first, a page at a time (gsi1 `BOOKS#S<status>`). */
export async function listBooksByStatus(
  status: number,
  limit: number,
  cursor: string | undefined,
): Promise<Page<BookRecord>> {
  const page = await queryIndexPage(booksByStatusPk(status), bookKey, limit, cursor, true);
  return {
    items: page.items.filter((i) => i.type === 'book').map((i) => strip<BookRecord>(i)),
    next: page.next,
  };
}

/** Orders of one status, newest first, a page at a time (gsi1 `ORDERS#<status>`). */
export async function listOrders(
  status: number,
  limit: number,
  cursor: string | undefined,
): Promise<Page<Item>> {
  const page = await queryIndexPage(ordersByStatusPk(status), orderKey, limit, cursor, false);
  return { items: page.items.map((i) => strip<Item>(i)), next: page.next };
}

/**
 * Status-0 books listed before `cutoff`, oldest first, one page (gsi1 `BOOKS#S0` by date). The
 * index is eventually consistent: callers re-check each book with a conditional write.
 */
export async function listStaleListings(
  cutoff: string,
  limit: number,
  startKey: Item | undefined,
): Promise<{ items: BookRecord[]; lastKey: Item | undefined }> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: INDEX.gsi1,
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :cutoff',
      ExpressionAttributeValues: { ':pk': booksByStatusPk(0), ':cutoff': cutoff },
      ScanIndexForward: true,
      Limit: limit,
      ExclusiveStartKey: startKey,
    }),
  );
  return {
    items: (out.Items ?? []).filter((i) => i.type === 'book').map((i) => strip<BookRecord>(i)),
    lastKey: out.LastEvaluatedKey,
  };
}
