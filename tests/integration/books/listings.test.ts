import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Book, RemovedBook } from '#lib/books/schemas.ts';
import { getBook } from '#lib/db/books.ts';
import { getGlobalStats } from '#lib/db/counters.ts';
import { cartItemKey, userStatsKey } from '#lib/db/keys.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand, PutCommand } from '#lib/table/commands.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBookBody, seedBook } from '#tests/helpers/books.ts';
import { expectEnvelope, expectError, expectOk, expectRefusal } from '#tests/helpers/schema.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

const Books = z.array(Book);

const stats = () => getGlobalStats();
async function userStats(userId: string) {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: userStatsKey(userId), ConsistentRead: true }),
  );
  return (out.Item ?? {}) as Record<string, number>;
}

async function post(user: TestUser, overrides: Parameters<typeof makeBookBody>[0] = {}) {
  const res = await booksApi.postBook(user.token, makeBookBody(overrides));
  expect(res.status).toBe(201);
  return expectEnvelope(res.json(), Book);
}

/**
 * A status change the book's status does not allow: `act` answers 409 INVALID_STATUS, and the book,
 * the global counters and alice's counters stay as they were.
 */
async function expectInvalidStatus(bookId: string, act: () => ReturnType<typeof booksApi.deleteBook>) {
  const before = [await getBook(bookId), await stats(), await userStats(alice.id)];
  expectRefusal(await act(), 409, 'INVALID_STATUS');
  expect([await getBook(bookId), await stats(), await userStats(alice.id)]).toEqual(before);
}

let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  alice = await makeUser({ firstName: 'Alice' });
  bob = await makeUser({ firstName: 'Bob' });
});

describe('postBook', () => {
  it('lists the book with an id, the caller as owner, status 0 and a date, and answers 201', async () => {
    const before = Date.now();
    const book = await post(alice, { ISBN: '0-306-40615-2', price: 12.5 });
    expect(book).toMatchObject({ status: 0, owner: { id: alice.id, firstName: 'Alice' }, price: 12.5 });
    expect(book.ISBN).toBe('9780306406157');
    expect(Date.parse(book.date)).toBeGreaterThanOrEqual(before - 1000);
    expect((await getBook(book.id))?.ownerId).toBe(alice.id);
  });

  it('moves the counters in the same write', async () => {
    const g0 = await stats();
    const u0 = await userStats(alice.id);
    await post(alice);
    const g1 = await stats();
    const u1 = await userStats(alice.id);
    expect((g1.totalBooks ?? 0) - (g0.totalBooks ?? 0)).toBe(1);
    expect((g1.books_s0 ?? 0) - (g0.books_s0 ?? 0)).toBe(1);
    expect((u1.activeListings ?? 0) - (u0.activeListings ?? 0)).toBe(1);
  });

  it('accepts the `Comments` spelling', async () => {
    const book = await post(alice, { comments: undefined, Comments: 'Like new' });
    expect(book.comments).toBe('Like new');
  });

  it('refuses bodies that set id, owner, status, date or buyer, and writes nothing', async () => {
    for (const field of ['id', 'owner', 'status', 'date', 'buyer']) {
      const body = { ...makeBookBody({ name: `refused-${field}` }), [field]: field === 'status' ? 1 : 'x' };
      const res = await booksApi.postBook(bob.token, body);
      expect(res.status, field).toBe(400);
      expect(expectError(res.json(), 'VALIDATION_FAILED').details?.map((d) => d.field)).toContain(field);
    }
    const posts = expectEnvelope((await booksApi.getUsersPosts(bob.token)).json(), Books);
    expect(posts).toEqual([]);
  });

  it('refuses a bad ISBN, both comment spellings at once, and needs a token', async () => {
    expect((await booksApi.postBook(alice.token, makeBookBody({ ISBN: '978-0-306-40615-8' }))).status).toBe(
      400,
    );
    expect((await booksApi.postBook(alice.token, makeBookBody({ Comments: 'x' }))).status).toBe(400);
    const anon = await booksApi.postBook(undefined, makeBookBody());
    expectRefusal(anon, 401, 'TOKEN_MISSING');
  });
});

describe('visibility', () => {
  let carol: TestUser;
  let dave: TestUser;
  let carolsListed: string;
  let carolsUnlisted: string;
  let carolsSold: string;
  let davesListed: string;

  beforeAll(async () => {
    carol = await makeUser({ firstName: 'Carol' });
    dave = await makeUser({ firstName: 'Dave' });
    carolsListed = (await seedBook(carol.id, { name: 'Carol listed' })).id;
    carolsUnlisted = (await seedBook(carol.id, { name: 'Carol unlisted', status: 5 })).id;
    carolsSold = (await seedBook(carol.id, { name: 'Carol sold', status: 1, buyerId: dave.id })).id;
    davesListed = (await seedBook(dave.id, { name: 'Dave listed' })).id;
  });

  const ids = (books: Book[]) => books.map((b) => b.id);
  const all = async (token?: string) =>
    expectEnvelope((await booksApi.getAllBooks(token, { limit: '100' })).json(), Books);

  it('shows anonymous callers every listed book and nothing else, without inCart', async () => {
    const books = await all();
    expect(ids(books)).toEqual(expect.arrayContaining([carolsListed, davesListed]));
    expect(ids(books)).not.toContain(carolsUnlisted);
    expect(ids(books)).not.toContain(carolsSold);
    expect(books.every((b) => b.status === 0 && b.inCart === undefined)).toBe(true);
    const noToken = expectEnvelope((await booksApi.getBooksNoToken(100, 0)).json(), Books);
    expect(ids(noToken)).toEqual(ids(books));
  });

  it("leaves the caller's own books out when a token is sent, and marks inCart", async () => {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...cartItemKey(dave.id, carolsListed), bookId: carolsListed },
      }),
    );
    const forDave = await all(dave.token);
    expect(ids(forDave)).toContain(carolsListed);
    expect(ids(forDave)).not.toContain(davesListed);
    expect(forDave.find((b) => b.id === carolsListed)?.inCart).toBe(true);
    expect(forDave.filter((b) => b.id !== carolsListed).every((b) => b.inCart === false)).toBe(true);
    const forCarol = await all(carol.token);
    expect(ids(forCarol)).toContain(davesListed);
    expect(ids(forCarol)).not.toContain(carolsListed);
    expect(forCarol.find((b) => b.id === davesListed)?.inCart).toBe(false);
  });

  it('answers 401 for a bad token on getAllBooks even though the token is optional', async () => {
    const res = await booksApi.getAllBooks('not.a.token');
    expect(res.status).toBe(401);
  });

  it("shows the owner their listed and unlisted books, never sold ones or other users'", async () => {
    const posts = expectEnvelope((await booksApi.getUsersPosts(carol.token)).json(), Books);
    expect(ids(posts).sort()).toEqual([carolsListed, carolsUnlisted].sort());
    expect((await booksApi.getUsersPosts()).status).toBe(401);
  });
});

describe('ownership', () => {
  it("answers 404 for another user's book on every change, and changes nothing", async () => {
    const book = await post(alice, { name: 'Not yours' });
    const before = await getBook(book.id);
    const attempts = [
      () => booksApi.updateBook(bob.token, { bookId: book.id, price: 1 }),
      () => booksApi.deleteBook(bob.token, { bookId: book.id }),
      () => booksApi.deleteBook(bob.token, { bookId: book.id, permanent: true }),
      () => booksApi.reactivateBook(bob.token, { bookId: book.id }),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expectRefusal(res, 404, 'BOOK_NOT_FOUND');
    }
    expect(await getBook(book.id)).toEqual(before);
  });

  it('answers 404 for a book that does not exist', async () => {
    expect((await booksApi.deleteBook(bob.token, { bookId: '01JUNKJUNKJUNKJUNKJUNKJUNK' })).status).toBe(404);
    expect((await booksApi.updateBook(bob.token, { bookId: 'nope', price: 2 })).status).toBe(404);
  });
});

describe('status transitions', () => {
  it('unlists a listed book (0 -> 5) and moves the counters', async () => {
    const book = await post(alice);
    const g0 = await stats();
    const u0 = await userStats(alice.id);
    const res = await booksApi.deleteBook(alice.token, { bookId: book.id });
    expect(expectOk(res, Book).status).toBe(5);
    const g1 = await stats();
    expect((g1.books_s0 ?? 0) - (g0.books_s0 ?? 0)).toBe(-1);
    expect((g1.books_s5 ?? 0) - (g0.books_s5 ?? 0)).toBe(1);
    expect(g1.totalBooks).toBe(g0.totalBooks);
    expect((await userStats(alice.id)).activeListings).toBe((u0.activeListings ?? 0) - 1);
  });

  it('refuses to unlist an unlisted book again (409)', async () => {
    const book = await post(alice);
    expect((await booksApi.deleteBook(alice.token, { bookId: book.id })).status).toBe(200);
    expect((await getBook(book.id))?.status).toBe(5);
    await expectInvalidStatus(book.id, () => booksApi.deleteBook(alice.token, { bookId: book.id }));
  });

  it('reactivates an unlisted book (5 -> 0) with a fresh date and moves the counters back', async () => {
    const book = await post(alice);
    await booksApi.deleteBook(alice.token, { bookId: book.id });
    const u0 = await userStats(alice.id);
    await new Promise((r) => setTimeout(r, 5));
    const res = await booksApi.reactivateBook(alice.token, { bookId: book.id });
    const back = expectOk(res, Book);
    expect(back.status).toBe(0);
    expect(Date.parse(back.date)).toBeGreaterThan(Date.parse(book.date));
    expect((await userStats(alice.id)).activeListings).toBe((u0.activeListings ?? 0) + 1);
    const newest = expectEnvelope((await booksApi.getBooksNoToken(1, 0)).json(), Books);
    expect(newest[0]?.id).toBe(book.id);
  });

  it('lets exactly one of two simultaneous unlists win, and moves the counters once', async () => {
    const book = await post(alice);
    const g0 = await stats();
    const results = await Promise.all([
      booksApi.deleteBook(alice.token, { bookId: book.id }),
      booksApi.deleteBook(alice.token, { bookId: book.id }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const g1 = await stats();
    expect((g1.books_s5 ?? 0) - (g0.books_s5 ?? 0)).toBe(1);
    expect((g1.books_s0 ?? 0) - (g0.books_s0 ?? 0)).toBe(-1);
  });

  it('refuses to reactivate a listed book (409)', async () => {
    const book = await post(alice);
    expect((await getBook(book.id))?.status).toBe(0);
    // Not re-dated (which would move it to the front of the listing) and no counter moved.
    await expectInvalidStatus(book.id, () => booksApi.reactivateBook(alice.token, { bookId: book.id }));
  });

  it('removes a listed or an unlisted book for good, with the counters', async () => {
    const listed = await post(alice);
    const unlisted = await post(alice);
    await booksApi.deleteBook(alice.token, { bookId: unlisted.id });
    const g0 = await stats();
    for (const b of [listed, unlisted]) {
      const res = await booksApi.deleteBook(alice.token, { bookId: b.id, permanent: true });
      expect(expectOk(res, RemovedBook)).toEqual({ id: b.id, removed: true });
      expect(await getBook(b.id)).toBeNull();
    }
    const g1 = await stats();
    expect((g1.totalBooks ?? 0) - (g0.totalBooks ?? 0)).toBe(-2);
    expect((g1.books_s0 ?? 0) - (g0.books_s0 ?? 0)).toBe(-1);
    expect((g1.books_s5 ?? 0) - (g0.books_s5 ?? 0)).toBe(-1);
  });

  for (const status of [1, 2, 3] as const) {
    it(`refuses every owner move of a book in status ${status} (409) and leaves it as it was`, async () => {
      const book = await seedBook(alice.id, { status, buyerId: bob.id, boughtAt: new Date().toISOString() });
      const before = await getBook(book.id);
      const attempts = [
        () => booksApi.deleteBook(alice.token, { bookId: book.id }),
        () => booksApi.deleteBook(alice.token, { bookId: book.id, permanent: true }),
        () => booksApi.reactivateBook(alice.token, { bookId: book.id }),
        () => booksApi.updateBook(alice.token, { bookId: book.id, price: 1 }),
      ];
      for (const attempt of attempts) {
        const res = await attempt();
        expectRefusal(res, 409, 'INVALID_STATUS');
      }
      expect(await getBook(book.id)).toEqual(before);
    });
  }
});

describe('getUsersPosts', () => {
  it("pages the caller's listed and unlisted books newest first, neither repeating nor skipping", async () => {
    const owner = await makeUser();
    const posted: Book[] = [];
    for (let i = 0; i < 5; i++) posted.push(await post(owner, { name: `Paged ${i}` }));
    expect((await booksApi.deleteBook(owner.token, { bookId: posted[1]?.id })).status).toBe(200);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const res = await booksApi.getUsersPosts(owner.token, { limit: '2', ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      seen.push(...expectEnvelope(res.json(), Books).map((b) => b.id));
      cursor = res.json<{ next: string | null }>().next ?? undefined;
      if (!cursor) break;
    }
    expect(seen).toEqual(posted.map((b) => b.id).reverse());
    const bad = await booksApi.getUsersPosts(alice.token, { cursor: 'AAAA.BBBB' });
    expect(bad.status).toBe(400);
  });
});

describe('updateBook', () => {
  it('changes price, condition and comments of a listed or an unlisted book', async () => {
    const book = await post(alice);
    const res = await booksApi.updateBook(alice.token, {
      bookId: book.id,
      price: 9.99,
      condition: 'Like New',
      comments: 'Coffee stain',
    });
    expect(expectOk(res, Book)).toMatchObject({
      id: book.id,
      price: 9.99,
      condition: 'like-new',
      comments: 'Coffee stain',
      name: book.name,
      status: 0,
      date: book.date,
    });
    await booksApi.deleteBook(alice.token, { bookId: book.id });
    const unlisted = await booksApi.updateBook(alice.token, { bookId: book.id, Comments: 'Legacy spelling' });
    expect(expectEnvelope(unlisted.json(), Book)).toMatchObject({ status: 5, comments: 'Legacy spelling' });
  });

  it('refuses other fields and out-of-bounds values', async () => {
    const book = await post(alice);
    for (const body of [
      { bookId: book.id, status: 1 },
      { bookId: book.id, owner: 'someone' },
      { bookId: book.id, date: '2020-01-01T00:00:00.000Z' },
      { bookId: book.id, price: 10000.5 },
      { bookId: book.id, condition: '' },
      { bookId: book.id, condition: 'Worn' },
      { bookId: book.id, price: 19.999999999 },
      { bookId: book.id },
    ]) {
      expect((await booksApi.updateBook(alice.token, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await getBook(book.id))?.priceCents).toBe(book.price * 100);
  });
});
