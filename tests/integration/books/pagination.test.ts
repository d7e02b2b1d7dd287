import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Book } from '#lib/books/schemas.ts';
import { encodeCursor } from '#lib/table/cursor.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { datesOldestFirst, makeBookBody, seedBook, TEST_CAMPUS } from '#tests/helpers/books.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

const Books = z.array(Book);
const TOTAL = 45;

let seller: TestUser;
let other: TestUser;
/** every listed book of this file's table, newest first */
let newestFirst: string[];
let othersIds: Set<string>;

beforeAll(async () => {
  seller = await makeUser();
  other = await makeUser();
  const dates = datesOldestFirst(TOTAL, 3_600_000);
  const books = [];
  for (const [i, date] of dates.entries()) {
    // every third book is `other`'s, so a token holder's pages have gaps to skip
    books.push(await seedBook(i % 3 === 0 ? other.id : seller.id, { date, name: `Paged ${i}` }));
  }
  // unlisted and sold books never appear
  await seedBook(seller.id, { status: 5, date: dates[10] });
  await seedBook(seller.id, { status: 1, date: dates[11], buyerId: other.id });
  newestFirst = books.map((b) => b.id).reverse();
  othersIds = new Set(books.filter((b) => b.ownerId === other.id).map((b) => b.id));
});

async function cursorPages(fetch: (q: Record<string, string>) => ReturnType<typeof booksApi.getAllBooks>) {
  const pages: string[][] = [];
  let cursor: string | null | undefined;
  do {
    const res = await fetch({ limit: '7', ...(cursor ? { cursor } : {}) });
    expect(res.status).toBe(200);
    pages.push(expectEnvelope(res.json(), Books).map((b) => b.id));
    cursor = res.json<{ next: string | null }>().next;
    expect(pages.length).toBeLessThan(20);
  } while (cursor);
  return pages;
}

describe('getBooksNoToken/{limit}/{skip}', () => {
  it('pages by limit and skip, newest first, without repeats or gaps', async () => {
    const seen: string[] = [];
    for (let skip = 0; skip < TOTAL; skip += 7) {
      const res = await booksApi.getBooksNoToken(7, skip);
      expect(res.status).toBe(200);
      seen.push(...expectEnvelope(res.json(), Books).map((b) => b.id));
    }
    expect(seen).toEqual(newestFirst);
  });

  it('answers an empty list past the end', async () => {
    for (const skip of [TOTAL, TOTAL + 1, 2000]) {
      expect(expectEnvelope((await booksApi.getBooksNoToken(5, skip)).json(), Books)).toEqual([]);
    }
  });

  it('answers 400 for every limit or skip outside the contract', async () => {
    const bad: Array<[string, string]> = [
      ['0', '0'],
      ['101', '0'],
      ['-1', '0'],
      ['1.5', '0'],
      ['abc', '0'],
      ['10', '-1'],
      ['10', '2001'],
      ['10', '10000'],
      ['10', '1e3'],
    ];
    for (const [limit, skip] of bad) {
      const res = await booksApi.getBooksNoToken(limit, skip);
      expect(res.status, `${limit}/${skip}`).toBe(400);
      expectError(res.json(), 'VALIDATION_FAILED');
    }
    expect((await booksApi.getBooksNoToken(100, 2000)).status).toBe(200);
  });
});

describe('getAllBooks cursor pages', () => {
  it('pages 40 by default', async () => {
    // one campus is one partition: full pages
    const res = await booksApi.getAllBooks(undefined, { campus: TEST_CAMPUS });
    expect(expectEnvelope(res.json(), Books)).toHaveLength(40);
    expect(res.json<{ next: string | null }>().next).toEqual(expect.any(String));
    // every campus is 8 shards merged: a page may be shorter, with a cursor to go on
    const all = await booksApi.getAllBooks();
    expect(expectEnvelope(all.json(), Books).length).toBeLessThanOrEqual(40);
    expect(expectEnvelope(all.json(), Books).length).toBeGreaterThan(0);
    expect(all.json<{ next: string | null }>().next).toEqual(expect.any(String));
  });

  it('neither repeats nor skips books, and ends with next: null', async () => {
    const pages = await cursorPages((q) => booksApi.getAllBooks(undefined, q));
    expect(pages.flat()).toEqual(newestFirst);
    expect(pages.every((p) => p.length <= 7)).toBe(true);
    const campusPages = await cursorPages((q) =>
      booksApi.getAllBooks(undefined, { ...q, campus: TEST_CAMPUS }),
    );
    expect(campusPages.flat()).toEqual(newestFirst);
    expect(campusPages.slice(0, -1).every((p) => p.length === 7)).toBe(true);
  });

  it("neither repeats nor skips with a token, leaving the caller's own books out", async () => {
    const pages = await cursorPages((q) => booksApi.getAllBooks(seller.token, q));
    expect(pages.flat()).toEqual(newestFirst.filter((id) => othersIds.has(id)));
  });

  it('stays stable while new books are posted between pages', async () => {
    const first = await booksApi.getAllBooks(undefined, { limit: '10' });
    const firstIds = expectEnvelope(first.json(), Books).map((b) => b.id);
    const poster = await makeUser();
    const posted = await booksApi.postBook(poster.token, makeBookBody({ name: 'Posted meanwhile' }));
    expect(posted.status).toBe(201);
    const rest: string[] = [];
    let cursor = first.json<{ next: string | null }>().next;
    while (cursor) {
      const res = await booksApi.getAllBooks(undefined, { limit: '10', cursor });
      rest.push(...expectEnvelope(res.json(), Books).map((b) => b.id));
      cursor = res.json<{ next: string | null }>().next;
    }
    expect([...firstIds, ...rest]).toEqual(newestFirst);
    const newest = expectEnvelope((await booksApi.getAllBooks(undefined, { limit: '1' })).json(), Books);
    expect(newest[0]?.id).toBe(expectEnvelope(posted.json(), Book).id);
    // the new book is now first in the listing: keep the expectations of later tests right
    newestFirst = [newest[0]?.id as string, ...newestFirst];
  });

  it('refuses malformed, altered or foreign cursors with 400', async () => {
    const good = (await booksApi.getAllBooks(undefined, { limit: '3' })).json<{ next: string }>().next;
    const [pos, mac] = good.split('.') as [string, string];
    const position = Buffer.from(pos, 'base64url').toString('utf8');
    // another position (its first digit changed) under the original MAC
    const altered = position.replace(/[0-9]/, (d) => (d === '1' ? '2' : '1'));
    expect(altered).not.toBe(position);
    const forged = `${Buffer.from(altered, 'utf8').toString('base64url')}.${mac}`;
    const otherScope = encodeCursor('search:T#paged', position);
    for (const cursor of ['garbage', `${pos}.`, `${pos}.${mac}x`, forged, otherScope, 'a.b']) {
      const res = await booksApi.getAllBooks(undefined, { cursor });
      expect(res.status, cursor).toBe(400);
      expectError(res.json(), 'VALIDATION_FAILED');
    }
    for (const limit of ['0', '101', 'x', '-5']) {
      expect((await booksApi.getAllBooks(undefined, { limit })).status, limit).toBe(400);
    }
    expect((await booksApi.getAllBooks(undefined, { page: '2' })).status).toBe(400);
  });
});
