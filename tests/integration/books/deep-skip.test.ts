/**
 * getBooksNoToken with a deep skip (issue 14): `skip` up to 2,000 costs at most 40 read units, on
 * one campus (one gsi4 partition) and on every campus (8 gsi1 shards merged), because it skips over
 * the keys-only indexes (gsi1keys, gsi4keys) and then reads only the page's books. Consumed
 * capacity is DynamoDB Local's own figure (the meter of lib/table/metrics.ts). The pages must be the
 * ones a plain walk of the listing (getAllBooks' cursor) gives: no repeats, no gaps, hidden books
 * not counted.
 */

import { ulid } from 'ulid';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Book } from '#lib/books/schemas.ts';
import { bookItem } from '#lib/db/books.ts';
import { LISTING_SHARDS_ALL, shardOf } from '#lib/db/keys.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { BatchWriteCommand, QueryCommand, type QueryCommandInput } from '#lib/table/commands.ts';
import {
  measured,
  type OperationRecord,
  startMeasuring,
  stopMeasuring,
  watchCalls,
} from '#lib/table/metrics.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { datesOldestFirst, makeBookBody, makeBookRecord, TEST_CAMPUS } from '#tests/helpers/books.ts';
import { expectEnvelope } from '#tests/helpers/schema.ts';
import { makeUser } from '#tests/helpers/users.ts';

const Books = z.array(Book);
const OTHER_CAMPUS = 'other.edu';
/** books of TEST_CAMPUS (HIDDEN of them hidden by moderation), and of another campus */
const HOME = 2_160;
const HIDDEN = 20;
const AWAY = 60;
/** the newest SKEWED books all sit on shard 0 of every campus's listing, so a skip needs a second round */
const SKEWED = 80;
const PAGE = 40;
const MAX_UNITS = 40;

/** A ULID whose book lands on shard 0 of the listing of every campus. */
function idOnShardZero(): string {
  for (;;) {
    const id = ulid();
    if (shardOf(id, LISTING_SHARDS_ALL) === 0) return id;
  }
}

/** The listing walked with getAllBooks' cursor (anonymous, 100 a page): every listed, visible book, newest first. */
async function walk(campus: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const res = await booksApi.getAllBooks(undefined, {
      limit: '100',
      campus,
      ...(cursor ? { cursor } : {}),
    });
    expect(res.status).toBe(200);
    ids.push(...expectEnvelope(res.json(), Books).map((b) => b.id));
    cursor = res.json<{ next: string | null }>().next;
    if (!cursor) return ids;
  }
  throw new Error('the walk did not end');
}

/** One getBooksNoToken page: its ids and the read units and calls it consumed. */
async function skipPage(limit: number, skip: number, campus: string) {
  startMeasuring({ capacity: true });
  const res = await booksApi.getBooksNoToken(limit, skip, undefined, { campus });
  const cost = measured();
  stopMeasuring();
  expect(res.status, `${campus} ${limit}/${skip}`).toBe(200);
  return {
    ids: expectEnvelope(res.json(), Books).map((b) => b.id),
    units: cost.capacityUnits,
    calls: cost.calls,
  };
}

let walks: Record<string, string[]>;

beforeAll(async () => {
  const seller = await makeUser();
  const total = HOME + AWAY;
  const dates = datesOldestFirst(total, 3_600_000);
  const records: BookRecord[] = dates.map((date, i) => {
    const newest = i >= total - SKEWED;
    return makeBookRecord(seller.id, {
      ...(newest ? { id: idOnShardZero() } : {}),
      date,
      name: `Deep ${i}`,
      campus: i % 36 === 5 ? OTHER_CAMPUS : TEST_CAMPUS,
    });
  });
  // hidden books of the home campus, spread through the listing
  const home = records.filter((r) => r.campus === TEST_CAMPUS);
  for (let k = 0; k < HIDDEN; k++) (home[k * 101 + 7] as BookRecord).hidden = true;
  for (let i = 0; i < records.length; i += 25) {
    await db.send(
      new BatchWriteCommand({
        RequestItems: {
          [TABLE]: records.slice(i, i + 25).map((r) => ({ PutRequest: { Item: bookItem(r) } })),
        },
      }),
    );
  }
  walks = { [TEST_CAMPUS]: await walk(TEST_CAMPUS), all: await walk('all') };
  expect(walks[TEST_CAMPUS]).toHaveLength(home.length - HIDDEN);
  expect(walks.all).toHaveLength(total - HIDDEN);
}, 240_000);

afterEach(() => stopMeasuring());

describe('getBooksNoToken with a deep skip', () => {
  for (const [campus, limit] of [
    [TEST_CAMPUS, PAGE],
    ['all', PAGE],
    // the contract's largest page
    [TEST_CAMPUS, 100],
    ['all', 100],
  ] as const) {
    it(`skips 2,000 on ${campus} with limit ${limit} for at most ${MAX_UNITS} read units, the same page a plain walk gives`, async () => {
      const page = await skipPage(limit, 2000, campus);
      expect(page.ids).toEqual(walks[campus]?.slice(2000, 2000 + limit));
      expect(page.ids).toHaveLength(limit);
      expect(page.units, `${campus} read units`).toBeLessThanOrEqual(MAX_UNITS);
      expect(page.units).toBeGreaterThan(0);
      // keys of every shard (and rarely a second round), then the page's shards: never a walk
      expect(page.calls).toBeLessThanOrEqual(3 * LISTING_SHARDS_ALL);
    });
  }

  for (const campus of [TEST_CAMPUS, 'all']) {
    it(`pages of ${campus} by limit and skip match the walk exactly, also across the skewed newest books`, async () => {
      const listing = walks[campus] as string[];
      for (const [limit, skip] of [
        [10, 1],
        [10, 75],
        [25, 100],
        [100, 1_000],
        [7, 1_999],
        [100, 2_000],
      ] as const) {
        const page = await skipPage(limit, skip, campus);
        expect(page.ids, `${limit}/${skip}`).toEqual(listing.slice(skip, skip + limit));
      }
    });
  }

  it('walks one campus by offset pages of 100 with every book once, in order', async () => {
    const listing = walks[TEST_CAMPUS] as string[];
    const seen: string[] = [];
    for (let skip = 0; skip <= 2000 && skip < listing.length; skip += 100) {
      seen.push(...(await skipPage(100, skip, TEST_CAMPUS)).ids);
    }
    expect(seen).toEqual(listing.slice(0, seen.length));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(Math.min(listing.length, 2100));
  });

  it('answers an empty page past the end and 400 past 2,000', async () => {
    const other = walks.all?.length ?? 0;
    expect((await skipPage(10, 2000, OTHER_CAMPUS)).ids).toEqual([]);
    expect(other).toBeGreaterThan(2000);
    const res = await booksApi.getBooksNoToken(10, 2001, undefined, { campus: 'all' });
    expect(res.status).toBe(400);
  });
});

/** The units a measured request spent on each of the keys-only indexes. */
const keysUnits = (operations: OperationRecord[]) => {
  const sum = (index: string) => operations.reduce((n, o) => n + (o.indexUnits?.[index] ?? 0), 0);
  return { gsi1keys: sum('gsi1keys'), gsi4keys: sum('gsi4keys') };
};

/**
 * Issue 30, item 6: the keys-only indexes stay only if they are worth their write cost. What they
 * cost is measured on the writes that touch their keys; what they save, on the deep skip, by
 * sending the skip's own keys-only Queries to the full indexes instead. bench/README.md, "The
 * keys-only indexes", gives the figures.
 */
describe('the keys-only indexes: worth their write cost', () => {
  it("cost a transaction's write units when a book is listed or leaves the listing, none on a price change", async () => {
    const seller = await makeUser();
    const cost = async (call: () => Promise<{ status: number }>, status: number) => {
      startMeasuring({ capacity: true });
      const res = await call();
      const ops = measured().operations;
      stopMeasuring();
      expect(res.status).toBe(status);
      return keysUnits(ops);
    };
    let bookId = '';
    const posted = await cost(async () => {
      const res = await booksApi.postBook(seller.token, makeBookBody());
      bookId = res.json<{ data: { id: string } }>().data.id;
      return res;
    }, 201);
    const repriced = await cost(() => booksApi.updateBook(seller.token, { bookId, price: 12.5 }), 200);
    const deleted = await cost(() => booksApi.deleteBook(seller.token, { bookId }), 200);
    // postBook and deleteBook write in a transaction: 2 units an item, on each index it touches;
    // deleting moves the book's gsi1 entry to the unlisted partition (a delete and a put) and drops
    // its gsi4 entry
    expect({ posted, repriced, deleted }).toEqual({
      posted: { gsi1keys: 2, gsi4keys: 2 },
      repriced: { gsi1keys: 0, gsi4keys: 0 },
      deleted: { gsi1keys: 4, gsi4keys: 2 },
    });
  });

  for (const campus of [TEST_CAMPUS, 'all']) {
    it(`save the deep skip on ${campus} most of its read units: the same Queries on the full index cost at least 4 x`, async () => {
      const queries: QueryCommandInput[] = [];
      const stop = watchCalls((operation, input) => {
        const q = input as unknown as QueryCommandInput;
        if (operation === 'Query' && q.IndexName?.endsWith('keys')) queries.push(structuredClone(q));
      });
      startMeasuring({ capacity: true });
      const res = await booksApi.getBooksNoToken(PAGE, 2000, undefined, { campus });
      const keys = keysUnits(measured().operations);
      stopMeasuring();
      stop();
      expect(res.status).toBe(200);
      const keysRead = keys.gsi1keys + keys.gsi4keys;
      expect(keysRead).toBeGreaterThan(0);
      expect(queries.length).toBeGreaterThan(0);

      // without the keys-only index, the skip reads the same entries from the full index
      startMeasuring({ capacity: true });
      for (const q of queries)
        await db.send(new QueryCommand({ ...q, IndexName: q.IndexName?.replace(/keys$/, '') }));
      const fullRead = measured().capacityUnits;
      stopMeasuring();
      expect(fullRead, `${campus}: keys-only ${keysRead} units, full ${fullRead}`).toBeGreaterThanOrEqual(
        4 * keysRead,
      );
    });
  }
});
