/**
 * GET /api/books/lookupIsbn/{isbn} against the Open Library stand-in the integration setup starts
 * (scripts/local/isbn-standin.ts): found, not found, bad check digit, slow source, the 30-day
 * cache (proved by the stand-in's own call counts), the hourly limit, and what a lookup reads.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { handler } from '#functions/books/lookup-isbn.ts';
import { BAD_ISBN_MESSAGE, ISBN_LOOKUP_LIMIT } from '#lib/books/isbn-lookup.ts';
import { IsbnLookup } from '#lib/books/lookup-schemas.ts';
import { fetchFromSource, SOURCE_TIMEOUT_MS } from '#lib/books/open-library.ts';
import { ISBN_CACHE_SECONDS } from '#lib/db/isbn-lookups.ts';
import { isbnLookupKey } from '#lib/db/keys.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { FIXTURE_ISBNS, SLOW_DELAY_MS } from '#scripts/local/isbn-fixtures.ts';
import { STANDIN_CALLS_PATH } from '#scripts/local/isbn-standin.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectDocumented } from '#tests/helpers/openapi.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { commandsOf } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

const ROUTE = '/api/books/lookupIsbn/{isbn}';

/** One lookup through the handler; every answer is checked against docs/openapi.json. */
async function lookup(isbn: string, token?: string) {
  const res = await invoke(handler, { route: ROUTE, pathParameters: { isbn }, token });
  expectDocumented(res, 'GET', ROUTE);
  return res;
}

/** A 200 lookup's data, schema-checked. */
async function lookedUp(isbn: string, user: TestUser) {
  const res = await lookup(isbn, user.token);
  expect(res.status).toBe(200);
  return expectEnvelope(res.json(), IsbnLookup);
}

/** How many Books API calls the stand-in has answered for an ISBN-13. */
async function sourceCalls(isbn13: string): Promise<number> {
  const res = await fetch(`${inject('isbnStandinUrl')}${STANDIN_CALLS_PATH}`);
  return ((await res.json()) as Record<string, number>)[isbn13] ?? 0;
}

const storedLookup = async (isbn13: string) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: isbnLookupKey(isbn13), ConsistentRead: true })))
    .Item;

let user: TestUser;

beforeAll(async () => {
  user = await makeUser({ campus: 'uni.edu' });
});

describe('lookupIsbn', () => {
  it('answers a known ISBN-10 with hyphens as its ISBN-13 with title, authors, edition, publisher, year and cover', async () => {
    const before = await sourceCalls('9780262033848');
    const started = Date.now();
    const data = await lookedUp('0-262-03384-4', user);
    expect(data).toEqual({
      isbn13: '9780262033848',
      source: 'openLibrary',
      book: {
        title: 'Introduction to Algorithms',
        authors: ['Thomas H. Cormen', 'Charles E. Leiserson', 'Ronald L. Rivest', 'Clifford Stein'],
        edition: 3,
        publisher: 'MIT Press',
        year: 2009,
        coverUrl: 'https://covers.openlibrary.org/b/isbn/9780262033848-L.jpg',
      },
      priceHint: null,
    });
    expect(await sourceCalls('9780262033848')).toBe(before + 1);
    // cached for 30 days: a TTL item holding the book
    const stored = await storedLookup('9780262033848');
    expect(stored).toMatchObject({ type: 'isbnLookup', book: data.book });
    const ttl = Number(stored?.ttl);
    expect(ttl).toBeGreaterThanOrEqual(Math.ceil(started / 1000) + ISBN_CACHE_SECONDS);
    expect(ttl).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + ISBN_CACHE_SECONDS);
  });

  it('reads a text edition "2nd ed." as 2, and leaves out a cover or an edition the source lacks', async () => {
    expect((await lookedUp(FIXTURE_ISBNS.TEXT_EDITION, user)).book).toMatchObject({
      title: 'Structure and Interpretation of Computer Programs',
      edition: 2,
    });
    expect((await lookedUp(FIXTURE_ISBNS.NO_COVER, user)).book).toMatchObject({
      title: 'Microeconomics',
      edition: 8,
      coverUrl: null,
    });
    expect((await lookedUp('9781429218122', user)).book).toMatchObject({
      title: 'Physical Chemistry',
      edition: null,
      year: 2010,
    });
  });

  it('answers book null for an ISBN the source does not know, and caches that too', async () => {
    const before = await sourceCalls(FIXTURE_ISBNS.UNKNOWN);
    expect(await lookedUp(FIXTURE_ISBNS.UNKNOWN, user)).toEqual({
      isbn13: FIXTURE_ISBNS.UNKNOWN,
      book: null,
      source: 'openLibrary',
      priceHint: null,
    });
    expect(await storedLookup(FIXTURE_ISBNS.UNKNOWN)).toMatchObject({ book: null });
    expect(await lookedUp(FIXTURE_ISBNS.UNKNOWN, user)).toMatchObject({ book: null, source: 'cache' });
    expect(await sourceCalls(FIXTURE_ISBNS.UNKNOWN)).toBe(before + 1);
  });

  it('answers a second lookup of an ISBN from the cache, with no second call to the source', async () => {
    const isbn13 = '9780131103627';
    const before = await sourceCalls(isbn13);
    const first = await lookedUp(isbn13, user);
    expect(first.source).toBe('openLibrary');
    expect(await sourceCalls(isbn13)).toBe(before + 1);
    // the ISBN-10 of the same book, by another user: the same cached answer
    const other = await makeUser({ campus: 'uni.edu' });
    const second = await lookedUp('0131103628', other);
    expect(second).toEqual({ ...first, source: 'cache' });
    expect(await sourceCalls(isbn13)).toBe(before + 1);
  });

  it('refuses a wrong check digit with 400 in plain words, without asking the source', async () => {
    const res = await lookup('978-0-262-03384-9', user.token);
    expect(res.status).toBe(400);
    const error = expectError(res.json(), 'ISBN_INVALID');
    expect(error.error).toBe(BAD_ISBN_MESSAGE);
    expect(error.details).toEqual([{ field: 'isbn', message: BAD_ISBN_MESSAGE }]);
    expect(await sourceCalls('9780262033849')).toBe(0);
    expect((await lookup('12345', user.token)).status).toBe(400);
  });

  it('answers 200 with book null and source "unavailable" when the source is slower than the limit, and caches nothing', async () => {
    const started = Date.now();
    const data = await lookedUp(FIXTURE_ISBNS.SLOW, user);
    const took = Date.now() - started;
    expect(data).toEqual({ isbn13: FIXTURE_ISBNS.SLOW, book: null, source: 'unavailable', priceHint: null });
    expect(took).toBeGreaterThanOrEqual(SOURCE_TIMEOUT_MS - 50);
    expect(took).toBeLessThan(SLOW_DELAY_MS);
    expect(await storedLookup(FIXTURE_ISBNS.SLOW)).toBeUndefined();
  });

  it('takes a source that is down (nothing listening) as unavailable, not as an error', async () => {
    expect(await fetchFromSource('http://127.0.0.1:9', '9780262033848')).toEqual({ kind: 'unavailable' });
    // and a source that answers an error status (here 404: the base URL has a path the stand-in lacks)
    expect(await fetchFromSource(`${inject('isbnStandinUrl')}/down/`, '9780262033848')).toEqual({
      kind: 'unavailable',
    });
  });

  it('needs a sign-in', async () => {
    const res = await lookup('9780262033848');
    expect(res.status).toBe(401);
    expectError(res.json(), 'TOKEN_MISSING');
  });

  it('reads a cached lookup with GetItems only: sign-in, limit window, cache and price hints (no Query, no Scan)', async () => {
    const campusUser = await makeUser({ campus: 'uni.edu' });
    await lookedUp('9780073383095', campusUser);
    const commands = await commandsOf(() => lookup('9780073383095', campusUser.token));
    expect(commands.sort()).toEqual(
      [
        'GetItem USER',
        'GetItem THROTTLE',
        'UpdateItem THROTTLE',
        'GetItem ISBNLOOKUP',
        // one item holds the ISBN's sales at the campus and at every campus
        'GetItem SALEPRICES',
      ].sort(),
    );
  });

  it(`allows ${ISBN_LOOKUP_LIMIT.limit} lookups an hour per user, then 429 with Retry-After`, async () => {
    const busy = await makeUser({ campus: 'uni.edu' });
    for (let i = 0; i < ISBN_LOOKUP_LIMIT.limit; i++) {
      expect((await lookup('9780133594140', busy.token)).status, `lookup ${i + 1}`).toBe(200);
    }
    const refused = await lookup('9780133594140', busy.token);
    expect(refused.status).toBe(429);
    expectError(refused.json(), 'TOO_MANY_REQUESTS');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // another user is not limited by it
    expect((await lookup('9780133594140', user.token)).status).toBe(200);
  }, 60_000);
});
