/**
 * Campus scoping, filters and cursors (issue 13; API.md, Additions, "Campus scoping" and
 * "Browsing"): two campuses, each student sees their own by default, `campus=all` and anonymous
 * callers see both; a request never matches a book of another campus; a cursor only works with the
 * campus, filters and sort it was issued for; filters page without repeats or gaps.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Book } from '#lib/books/schemas.ts';
import { bookKey, campusListingPk, userKey } from '#lib/db/keys.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import { createRequest, requestBody, userMatches } from '#tests/helpers/matching.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { consumeNew, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

const Books = z.array(Book);
const A = 'alpha-uni.edu';
const B = 'beta-college.edu';

const userAt = (campus: string, sub = '') => {
  const email = `student-${Math.random().toString(36).slice(2, 10)}@${sub}${campus}`;
  return makeUser({ emailAddress: email, emailNormalised: email });
};

let reader: StreamReader;
let sellerA: TestUser;
let sellerB: TestUser;
let studentA: TestUser;
const idsA: string[] = [];
const idsB: string[] = [];
const GRADES = ['new', 'like-new', 'good', 'acceptable'];

/** Posts a book through the API (so it takes its owner's campus); returns its id. */
async function post(seller: TestUser, i: number, name: string, course = 'CAM 101') {
  const res = await booksApi.postBook(
    seller.token,
    makeBookBody({ name, course, price: 5 + i, condition: GRADES[i % GRADES.length] as string }),
  );
  expect(res.status).toBe(201);
  return expectEnvelope(res.json(), Book).id;
}

const idsOf = (res: { json: <T>() => T }) => expectEnvelope(res.json(), Books).map((b) => b.id);
const nextOf = (res: { json: <T>() => T }) => res.json<{ next: string | null }>().next;

/** Every page of a cursor listing, with the page size `limit`. */
async function allPages(
  fetch: (q: Record<string, string>) => ReturnType<typeof booksApi.getAllBooks>,
  query: Record<string, string>,
): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const res = await fetch({ ...query, ...(cursor ? { cursor } : {}) });
    expect(res.status).toBe(200);
    pages.push(idsOf(res));
    cursor = nextOf(res);
    expect(pages.length).toBeLessThan(40);
  } while (cursor);
  return pages;
}

beforeAll(async () => {
  reader = new StreamReader();
  await reader.skipToEnd();
  sellerA = await userAt(A, 'cs.');
  sellerB = await userAt(B);
  studentA = await userAt(A);
  // posted one after another, so newest first is the reverse
  for (let i = 0; i < 12; i++) idsA.unshift(await post(sellerA, i, `Campus Optics ${i}`));
  for (let i = 0; i < 5; i++) idsB.unshift(await post(sellerB, i, `Campus Optics B${i}`));
  await consumeNew(reader, 'BOOK#');
}, 60_000);

describe('campus of users and books', () => {
  it("is the last two labels of the address's domain, stored on the user and on their books", async () => {
    const user = await db.send(new GetCommand({ TableName: TABLE, Key: userKey(sellerA.id) }));
    // a user stored before campuses gets it from the address on every read
    expect(user.Item?.campus).toBeUndefined();
    const book = await db.send(new GetCommand({ TableName: TABLE, Key: bookKey(idsA[0] as string) }));
    expect(book.Item).toMatchObject({ campus: A, gsi4pk: campusListingPk(A, 0) });
    const res = await booksApi.getBook(idsB[0] as string);
    expect(res.status).toBe(200);
  });
});

describe('listings by campus', () => {
  it('shows a student their own campus by default, both with campus=all, and both to anonymous callers', async () => {
    const own = await allPages((q) => booksApi.getAllBooks(studentA.token, q), { limit: '5' });
    expect(own.flat()).toEqual(idsA);
    const all = await allPages((q) => booksApi.getAllBooks(studentA.token, q), { limit: '5', campus: 'all' });
    expect(new Set(all.flat())).toEqual(new Set([...idsA, ...idsB]));
    expect(all.flat()).toHaveLength(idsA.length + idsB.length);
    const anonymous = await allPages((q) => booksApi.getAllBooks(undefined, q), { limit: '6' });
    expect(anonymous.flat()).toEqual(all.flat());
    const other = await allPages((q) => booksApi.getAllBooks(studentA.token, q), { campus: B.toUpperCase() });
    expect(other.flat()).toEqual(idsB);
  });

  it('scopes getBooksNoToken by ?campus= (default all)', async () => {
    const res = await booksApi.getBooksNoToken(100, 0);
    expect(idsOf(res)).toHaveLength(idsA.length + idsB.length);
    const { invoke } = await import('#tests/helpers/lambda.ts');
    const { handler } = await import('#functions/books/get-books-no-token.ts');
    const scoped = await invoke(handler, {
      route: '/api/books/getBooksNoToken/{limit}/{skip}',
      pathParameters: { limit: '3', skip: '2' },
      query: { campus: B },
    });
    expect(idsOf(scoped)).toEqual(idsB.slice(2, 5));
  });

  it('scopes searches the same way', async () => {
    const mine = await booksApi.search(studentA.token, 'optics', { limit: '50' });
    expect(mine.status).toBe(200);
    expect(idsOf(mine)).toEqual(idsA);
    const everyone = await booksApi.searchPublic('optics', { limit: '50' });
    expect(new Set(idsOf(everyone))).toEqual(new Set([...idsA, ...idsB]));
    const onlyB = await booksApi.searchPublic('optics', { limit: '50', campus: B });
    expect(idsOf(onlyB)).toEqual(idsB);
  });

  it('answers 400 for a campus that is not a domain or all', async () => {
    for (const campus of ['nowhere', 'a.b.c.d', 'x#y.edu', '']) {
      const res = await booksApi.getAllBooks(undefined, { campus });
      expect(res.status, campus).toBe(400);
      expectError(res.json(), 'VALIDATION_FAILED');
    }
  });
});

describe('filters', () => {
  it('condition, minPrice and maxPrice, alone and combined, across pages without repeats or gaps', async () => {
    const byIndex = (pick: (i: number) => boolean) => idsA.filter((_, k) => pick(idsA.length - 1 - k));
    const cases: Array<[Record<string, string>, string[]]> = [
      [{ condition: 'Like New' }, byIndex((i) => i % 4 === 1)],
      [{ condition: 'new,acceptable' }, byIndex((i) => i % 4 === 0 || i % 4 === 3)],
      [{ minPrice: '10' }, byIndex((i) => 5 + i >= 10)],
      [{ maxPrice: '8.00' }, byIndex((i) => 5 + i <= 8)],
      [{ minPrice: '7', maxPrice: '14', condition: 'good' }, byIndex((i) => i % 4 === 2 && i >= 2 && i <= 9)],
    ];
    for (const [filter, expected] of cases) {
      const pages = await allPages((q) => booksApi.getAllBooks(studentA.token, q), { limit: '2', ...filter });
      expect(pages.flat(), JSON.stringify(filter)).toEqual(expected);
      const found = await booksApi.search(studentA.token, 'campus', { limit: '50', ...filter });
      expect(idsOf(found), `search ${JSON.stringify(filter)}`).toEqual(expected);
    }
  });

  it('refuses a condition that is not a grade, and a price with more than 2 decimals', async () => {
    const bad: Array<Record<string, string>> = [
      { condition: 'mint' },
      { minPrice: '1.001' },
      { maxPrice: '-1' },
      { sort: 'oldest' },
      { sort: 'price' },
    ];
    for (const query of bad) {
      const res = await booksApi.getAllBooks(undefined, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
  });
});

describe('price sorts', () => {
  /** Every listed book of the table with its sort key by price. */
  async function byPriceKey(campus: string) {
    const res = await booksApi.getAllBooks(undefined, { campus, limit: '100' });
    const books = expectEnvelope(res.json(), Books);
    const all = [...books];
    let cursor = nextOf(res);
    while (cursor) {
      const more = await booksApi.getAllBooks(undefined, { campus, limit: '100', cursor });
      all.push(...expectEnvelope(more.json(), Books));
      cursor = nextOf(more);
    }
    const key = (b: Book) => `${String(Math.round(b.price * 100)).padStart(7, '0')}#${b.date}#${b.id}`;
    return all.sort((x, y) => (key(x) < key(y) ? -1 : 1)).map((b) => b.id);
  }

  it('orders exactly by price across pages, both ways, per campus and for all, also filtered', async () => {
    const ascA = await byPriceKey(A);
    expect(ascA).toHaveLength(idsA.length);
    const pagesA = await allPages((q) => booksApi.getAllBooks(studentA.token, q), {
      limit: '5',
      sort: 'price-asc',
    });
    expect(pagesA.flat()).toEqual(ascA);
    const descA = await allPages((q) => booksApi.getAllBooks(studentA.token, q), {
      limit: '4',
      sort: 'price-desc',
    });
    expect(descA.flat()).toEqual([...ascA].reverse());
    const ascAll = await byPriceKey('all');
    const pagesAll = await allPages((q) => booksApi.getAllBooks(undefined, q), {
      limit: '3',
      sort: 'price-asc',
    });
    expect(pagesAll.flat()).toEqual(ascAll);
    const cheap = await allPages((q) => booksApi.getAllBooks(undefined, q), {
      limit: '2',
      sort: 'price-desc',
      maxPrice: '7',
    });
    const cents = new Map(
      expectEnvelope((await booksApi.getAllBooks(undefined, { limit: '100', campus: B })).json(), Books)
        .concat(
          expectEnvelope((await booksApi.getAllBooks(undefined, { limit: '100', campus: A })).json(), Books),
        )
        .map((b) => [b.id, b.price]),
    );
    expect(cheap.flat()).toEqual([...ascAll].reverse().filter((id) => (cents.get(id) ?? 99) <= 7));
  });

  it('orders both searches exactly by price across pages, both ways, with one or two index terms, also filtered', async () => {
    const ascA = await byPriceKey(A);
    const ascAll = await byPriceKey('all');
    const search = (q: string) => (query: Record<string, string>) =>
      booksApi.search(studentA.token, q, query);
    // one term (T#optics) and two overlapping terms (C#CAM101 and T#cam: every book is under both)
    for (const q of ['optics', 'CAM 101']) {
      const asc = await allPages(search(q), { limit: '5', sort: 'price-asc' });
      expect(asc.flat(), q).toEqual(ascA);
      const desc = await allPages(search(q), { limit: '3', sort: 'price-desc' });
      expect(desc.flat(), q).toEqual([...ascA].reverse());
    }
    const publicAsc = await allPages((query) => booksApi.searchPublic('optics', query), {
      limit: '4',
      sort: 'price-asc',
    });
    expect(publicAsc.flat()).toEqual(ascAll);
    // combined: a condition and a price range, by price, across pages of 1
    const prices = new Map(idsA.map((id, k) => [id, 5 + (idsA.length - 1 - k)]));
    const grade = new Map(idsA.map((id, k) => [id, GRADES[(idsA.length - 1 - k) % GRADES.length]]));
    const filtered = await allPages(search('CAM 101'), {
      limit: '1',
      sort: 'price-desc',
      condition: 'good,new',
      minPrice: '6',
      maxPrice: '15',
    });
    const expected = [...ascA]
      .reverse()
      .filter((id) => ['good', 'new'].includes(grade.get(id) ?? '') && (prices.get(id) ?? 0) >= 6)
      .filter((id) => (prices.get(id) ?? 99) <= 15);
    expect(expected.length).toBeGreaterThan(2);
    expect(filtered.flat()).toEqual(expected);
  });
});

describe('cursors', () => {
  it('are refused (400) when reused with another campus, filter or sort', async () => {
    const first = await booksApi.getAllBooks(studentA.token, { limit: '2', condition: 'good' });
    const cursor = nextOf(first) as string;
    expect(cursor).toEqual(expect.any(String));
    const same = await booksApi.getAllBooks(studentA.token, { limit: '2', condition: 'good', cursor });
    expect(same.status).toBe(200);
    for (const other of <Array<Record<string, string>>>[
      { condition: 'new' },
      {},
      { condition: 'good', campus: 'all' },
      { condition: 'good', campus: B },
      { condition: 'good', minPrice: '1' },
      { condition: 'good', maxPrice: '100' },
    ]) {
      const res = await booksApi.getAllBooks(studentA.token, { limit: '2', ...other, cursor });
      expect(res.status, JSON.stringify(other)).toBe(400);
      expectError(res.json(), 'VALIDATION_FAILED');
    }
    const newest = await booksApi.getAllBooks(studentA.token, { limit: '2' });
    const byPrice = await booksApi.getAllBooks(studentA.token, {
      limit: '2',
      sort: 'price-asc',
      cursor: nextOf(newest) as string,
    });
    expect(byPrice.status).toBe(400);
    const search = await booksApi.search(studentA.token, 'optics', { limit: '2' });
    const searchCursor = nextOf(search) as string;
    const moved = await booksApi.search(studentA.token, 'optics', {
      limit: '2',
      campus: 'all',
      cursor: searchCursor,
    });
    expect(moved.status).toBe(400);
    const searchByPrice = await booksApi.search(studentA.token, 'optics', { limit: '2', sort: 'price-asc' });
    const priceCursor = nextOf(searchByPrice) as string;
    expect(priceCursor).toEqual(expect.any(String));
    const again = await booksApi.search(studentA.token, 'optics', {
      limit: '2',
      sort: 'price-asc',
      cursor: priceCursor,
    });
    expect(again.status).toBe(200);
    for (const other of <Array<Record<string, string>>>[
      { sort: 'price-desc' },
      { sort: 'newest' },
      {},
      { sort: 'price-asc', condition: 'good' },
      { sort: 'price-asc', campus: 'all' },
    ]) {
      const res = await booksApi.search(studentA.token, 'optics', {
        limit: '2',
        ...other,
        cursor: priceCursor,
      });
      expect(res.status, `search ${JSON.stringify(other)}`).toBe(400);
    }
  });
});

describe('matching within one campus', () => {
  it('never matches a request at one campus with a book at another', async () => {
    const wanterA = await userAt(A);
    const wanterB = await userAt(B);
    const course = `XCAMP ${Date.now().toString(36).slice(-4)}`;
    await createRequest(wanterA.token, requestBody({ course }));
    await createRequest(wanterB.token, requestBody({ course }));
    const bookA = await post(sellerA, 1, 'Crossing Campuses', course);
    await consumeNew(reader, '');
    expect((await userMatches(wanterA.token)).map((m) => m.id)).toEqual([bookA]);
    expect(await userMatches(wanterB.token)).toEqual([]);
    // and a request posted after the book, at the other campus, does not find it either
    const lateB = await userAt(B);
    await createRequest(lateB.token, requestBody({ course }));
    await consumeNew(reader, '');
    expect(await userMatches(lateB.token)).toEqual([]);
  });
});
