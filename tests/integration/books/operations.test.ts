/**
 * The cost of a request must not grow with the table: every listing route is measured with 30 and
 * then with 300 listed books seeded, and must make the same DynamoDB calls (never a Scan: the
 * client refuses it) with about the same consumed capacity.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getUserMatches } from '#functions/matching/get-user-matches.ts';
import { searchEntriesOf, typoAdditions } from '#lib/books/search-index.ts';
import { bookItem, writeEntries } from '#lib/db/books.ts';
import { bookKey, LISTING_SHARDS_ALL } from '#lib/db/keys.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { addTypoWords } from '#lib/db/typo-vocabulary.ts';
import { Busy } from '#lib/errors.ts';
import { matchingProcessor } from '#lib/matching/processor.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { BatchWriteCommand } from '#lib/table/commands.ts';
import { measured, type OperationRecord, startMeasuring } from '#lib/table/metrics.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { datesOldestFirst, makeBookRecord } from '#tests/helpers/books.ts';
import { type InvokeResult, invoke } from '#tests/helpers/lambda.ts';
import { createRequest } from '#tests/helpers/matching.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

let seller: TestUser;
let caller: TestUser;
let seeded = 0;

/** Seeds listed books (with their search entries) until `total` are listed. */
/**
 * Runs a seeding write again when DynamoDB Local answers too slowly (Busy: our client's timeout on
 * a machine loaded by the rest of the suite). Seeding is this test's set-up, not what it measures;
 * every write here is an idempotent put, so repeating one changes nothing.
 */
async function seedWrite(write: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await write();
      return;
    } catch (err) {
      if (!(err instanceof Busy) || attempt === 10) throw err;
      await new Promise((r) => setTimeout(r, 2_000 * attempt));
    }
  }
}

async function seedUpTo(total: number) {
  const dates = datesOldestFirst(total - seeded, 10 * 3_600_000 - seeded * 1000);
  const records: BookRecord[] = dates.map((date, i) =>
    makeBookRecord(seller.id, {
      date,
      name: `Optics ${seeded + i}`,
      course: 'PHY 101',
      ISBN: seeded + i === 0 ? '9780306406157' : null,
      // prices spread out, so the price orders interleave the dates
      priceCents: 500 + (((seeded + i) * 7919) % 9000),
      condition: (['good', 'new', 'acceptable'] as const)[(seeded + i) % 3],
    }),
  );
  for (let i = 0; i < records.length; i += 25) {
    await seedWrite(() =>
      db.send(
        new BatchWriteCommand({
          RequestItems: {
            [TABLE]: records.slice(i, i + 25).map((r) => ({ PutRequest: { Item: bookItem(r) } })),
          },
        }),
      ),
    );
  }
  // the consumer's entries, as its processors write them: the search entries (with price order)
  // and the typo vocabulary of every new book at once (the processor's writes of 300 books one by
  // one took most of this test's 8 minutes in CI), then the matches of the caller's request
  const entries = records.flatMap((r) => [...searchEntriesOf(bookItem(r)).values()]);
  await seedWrite(() => writeEntries(entries, []));
  const vocabulary = new Map<string, string[]>();
  for (const r of records)
    for (const [variant, words] of typoAdditions(undefined, bookItem(r)))
      vocabulary.set(variant, [...new Set([...(vocabulary.get(variant) ?? []), ...words])]);
  await seedWrite(() => addTypoWords(vocabulary));
  for (let i = 0; i < records.length; i += 10) {
    await Promise.all(
      records.slice(i, i + 10).map((r) =>
        seedWrite(() =>
          matchingProcessor.apply({
            eventName: 'INSERT',
            eventId: r.id,
            sequenceNumber: r.id,
            keys: bookKey(r.id),
            oldImage: undefined,
            newImage: bookItem(r),
          }),
        ),
      ),
    );
  }
  seeded = total;
}

const requests: Array<[string, () => Promise<InvokeResult>]> = [
  ['getBooksNoToken first page', () => booksApi.getBooksNoToken(10, 0)],
  ['getBooksNoToken with skip', () => booksApi.getBooksNoToken(10, 15)],
  ['getAllBooks anonymous', () => booksApi.getAllBooks(undefined, { limit: '10' })],
  ['getAllBooks with a token', () => booksApi.getAllBooks(caller.token, { limit: '10' })],
  ['getAllBooks default page with a token', () => booksApi.getAllBooks(caller.token)],
  ['public search by title', () => booksApi.searchPublic('optics', { limit: '10' })],
  ['search by title with a token', () => booksApi.search(caller.token, 'opt', { limit: '10' })],
  ['search by course code', () => booksApi.searchPublic('phy-101', { limit: '10' })],
  ['search by ISBN', () => booksApi.searchPublic('0-306-40615-2')],
  ['search by department', () => booksApi.searchPublic('phy', { limit: '10' })],
  ['search by course number', () => booksApi.searchPublic('101', { limit: '10' })],
  ['search with a typo', () => booksApi.searchPublic('opticz', { limit: '10' })],
  ['public search by price', () => booksApi.searchPublic('optics', { limit: '10', sort: 'price-asc' })],
  [
    'search by course with a token, filtered, by price',
    () =>
      booksApi.search(caller.token, 'phy-101', {
        limit: '10',
        sort: 'price-desc',
        condition: 'good,new',
        minPrice: '10',
      }),
  ],
  [
    'getUserMatches',
    () => invoke(getUserMatches, { route: '/api/books/getUserMatches', token: caller.token }),
  ],
  ['getUsersPosts', () => booksApi.getUsersPosts(caller.token)],
];

/**
 * The most calls a request may make: a few on one campus (one partition); a page of every campus
 * reads its LISTING_SHARDS_ALL shards at once; an offset page of every campus reads the keys-only
 * index of every shard, then the page's key range on every shard.
 */
const maxCalls = (name: string): number => {
  if (name.startsWith('getBooksNoToken')) return LISTING_SHARDS_ALL * 2;
  if (name === 'getAllBooks anonymous') return LISTING_SHARDS_ALL;
  return 4;
};

async function measureAll(): Promise<Map<string, OperationRecord[]>> {
  const result = new Map<string, OperationRecord[]>();
  for (const [name, run] of requests) {
    startMeasuring({ capacity: true });
    const res = await run();
    expect(res.status, name).toBe(200);
    result.set(name, measured().operations);
  }
  return result;
}

beforeAll(async () => {
  seller = await makeUser();
  caller = await makeUser();
  // every seeded book matches it (course PHY 101)
  await createRequest(caller.token, { name: 'Optics', course: 'PHY 101' });
  // the caller's own books: a constant number, listed and unlisted, among the others
  for (const status of [0, 5, 0] as const) {
    const r = makeBookRecord(caller.id, { status, name: 'Optics of my own' });
    await db.send(
      new BatchWriteCommand({ RequestItems: { [TABLE]: [{ PutRequest: { Item: bookItem(r) } }] } }),
    );
  }
}, 120_000);

describe('DynamoDB operations per request', () => {
  it('are the same few Query/GetItem/BatchGet calls with 30 and with 300 books, never a Scan', async () => {
    await seedUpTo(30);
    const small = await measureAll();
    await seedUpTo(300);
    const large = await measureAll();
    for (const [name] of requests) {
      const s = small.get(name) ?? [];
      const l = large.get(name) ?? [];
      const commands = l.map((o) => o.command);
      expect(commands, name).not.toContain('Scan');
      expect(
        commands.every((c) => ['GetItem', 'Query', 'BatchGetItem'].includes(c)),
        `${name}: ${commands}`,
      ).toBe(true);
      expect(l.length, `${name}: ${commands}`).toBeLessThanOrEqual(maxCalls(name));
      expect(commands, name).toEqual(s.map((o) => o.command));
      const cap = (ops: OperationRecord[]) => ops.reduce((sum, o) => sum + o.capacityUnits, 0);
      // (an offset page's rounds vary as above: its capacity is compared per call)
      const rounds = name.startsWith('getBooksNoToken') ? l.length / Math.max(s.length, 1) : 1;
      expect(cap(l), `${name} capacity`).toBeLessThanOrEqual(cap(s) * rounds * 1.5 + 1);
      // searches and matches read their entries, never the books: at most the cart's BatchGet,
      // and a typo's one BatchGet of the typo vocabulary (its word's deletion variants)
      if (name.includes('search') || name === 'getUserMatches') {
        const batchGets = commands.filter((c) => c === 'BatchGetItem').length;
        const vocabulary = name.includes('typo') ? 1 : 0;
        expect(batchGets, `${name}: ${commands}`).toBe((commands.includes('GetItem') ? 1 : 0) + vocabulary);
      }
    }
    // a search page reads at most 2x what a listing page of the same size reads (Queries only:
    // the cart BatchGet is the same on both); a matches page (40 matches) at most 2x a 40-book page
    const queried = (name: string) =>
      (large.get(name) ?? [])
        .filter((o) => o.command === 'Query')
        .reduce((sum, o) => sum + o.capacityUnits, 0);
    const listing = queried('getAllBooks with a token');
    expect(listing).toBeGreaterThan(0);
    for (const name of [
      'search by title with a token',
      'search by course with a token, filtered, by price',
    ]) {
      expect(queried(name), name).toBeLessThanOrEqual(2 * listing);
    }
    expect(queried('getUserMatches')).toBeLessThanOrEqual(
      2 * queried('getAllBooks default page with a token'),
    );
  }, 600_000);
});
