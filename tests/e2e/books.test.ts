import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Book } from '#lib/books/schemas.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import { api } from '#tests/helpers/e2e.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

const Books = z.array(Book);

/** Polls a public search until `done` holds (the stream consumer runs a moment after the write). */
async function searchUntil(query: string, done: (books: Book[]) => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let last: Book[] = [];
  while (Date.now() < deadline) {
    const res = await api('GET', `/api/books/search/public/${encodeURIComponent(query)}`);
    expect(res.status).toBe(200);
    last = expectEnvelope(res.body, Books);
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`search "${query}" did not settle within ${timeoutMs} ms: ${JSON.stringify(last)}`);
}

let seller: TestUser;
let buyer: TestUser;
// a word no other e2e file uses, so the shared table's other books do not interfere
const word = `zq${ulid().slice(-8).toLowerCase()}`;

beforeAll(async () => {
  seller = await makeUser({ firstName: 'Sam' });
  buyer = await makeUser({ firstName: 'Bea' });
});

describe('listings over HTTP', () => {
  it('posts a book, shows it to others but not to its owner, and finds it by search', async () => {
    const res = await api('POST', '/api/books/postBook', {
      token: seller.token,
      body: makeBookBody({ name: `Quantum ${word} Mechanics`, course: 'PHY 451', ISBN: '0-306-40615-2' }),
    });
    expect(res.status).toBe(201);
    const book = expectEnvelope(res.body, Book);
    expect(book).toMatchObject({
      status: 0,
      owner: { id: seller.id, firstName: 'Sam' },
      ISBN: '9780306406157',
    });
    expect((res.body as { method: string }).method).toBe('POST /api/books/postBook');

    const anon = await api('GET', '/api/books/getAllBooks?limit=100');
    expect(expectEnvelope(anon.body, Books).map((b) => b.id)).toContain(book.id);
    const mine = await api('GET', '/api/books/getAllBooks?limit=100', { token: seller.token });
    expect(expectEnvelope(mine.body, Books).map((b) => b.id)).not.toContain(book.id);
    const theirs = await api('GET', '/api/books/getAllBooks?limit=100', { token: buyer.token });
    expect(expectEnvelope(theirs.body, Books).find((b) => b.id === book.id)?.inCart).toBe(false);

    const noToken = await api('GET', '/api/books/getBooksNoToken/100/0');
    expect((noToken.body as { method: string }).method).toBe('GET /api/books/getBooksNoToken/{limit}/{skip}');
    expect(expectEnvelope(noToken.body, Books).map((b) => b.id)).toContain(book.id);

    const found = await searchUntil(word.slice(0, 6), (books) => books.some((b) => b.id === book.id));
    expect(found.map((b) => b.id)).toContain(book.id);
    const byQuery = await api('GET', `/api/books/search/${encodeURIComponent(`quantum ${word}`)}`, {
      token: buyer.token,
    });
    expect(expectEnvelope(byQuery.body, Books).map((b) => b.id)).toEqual([book.id]);
    const own = await api('GET', `/api/books/search/${word}`, { token: seller.token });
    expect(expectEnvelope(own.body, Books)).toEqual([]);

    const unlisted = await api('POST', '/api/books/deleteBook', {
      token: seller.token,
      body: { bookId: book.id },
    });
    expect(expectEnvelope(unlisted.body, Book).status).toBe(5);
    expect(await searchUntil(word, (books) => books.length === 0)).toEqual([]);
    const posts = await api('GET', '/api/books/getUsersPosts', { token: seller.token });
    expect(expectEnvelope(posts.body, Books).map((b) => [b.id, b.status])).toEqual([[book.id, 5]]);
  });

  it('treats URL-encoded metacharacters in a search and in a name as text', async () => {
    const tag = `mc${ulid().slice(-8).toLowerCase()}`;
    const name = `Regex ${tag} .* 100% ' OR 1=1 -- {}[]() # $where`;
    const poster = await makeUser();
    const posted = await api('POST', '/api/books/postBook', {
      token: poster.token,
      body: makeBookBody({ name }),
    });
    expect(posted.status).toBe(201);
    const book = expectEnvelope(posted.body, Book);
    expect(book.name).toBe(name);
    await searchUntil(tag, (books) => books.some((b) => b.id === book.id));
    // Metacharacters beside the tag are words or nothing, never patterns: exactly this book.
    for (const q of ['.*', '100%', "' OR 1=1 --", '{}[]()', '#', '$where']) {
      const res = await api('GET', `/api/books/search/public/${encodeURIComponent(`${tag} ${q}`)}`);
      expect(res.status, q).toBe(200);
      expect(
        expectEnvelope(res.body, Books).map((b) => [b.id, b.name]),
        q,
      ).toEqual([[book.id, name]]);
    }
    // Without a letter or digit a query matches nothing (a pattern such as .* would match everything).
    for (const q of ['.*', '{}[]()', '#', '%']) {
      const res = await api('GET', `/api/books/search/public/${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(expectEnvelope(res.body, Books), q).toEqual([]);
    }
    const posts = await api('GET', '/api/books/getUsersPosts', { token: poster.token });
    expect(expectEnvelope(posts.body, Books).map((b) => [b.id, b.name])).toEqual([[book.id, name]]);
  });

  it("answers 400 for out-of-range paging and 404 for another user's book", async () => {
    const bad = await api('GET', '/api/books/getBooksNoToken/0/0');
    expect(bad.status).toBe(400);
    expectError(bad.body, 'VALIDATION_FAILED');
    expect((await api('GET', '/api/books/getBooksNoToken/10/10001')).status).toBe(400);
    expect((await api('GET', `/api/books/search/public/${'a'.repeat(101)}`)).status).toBe(400);
    const posted = await api('POST', '/api/books/postBook', { token: seller.token, body: makeBookBody() });
    const id = expectEnvelope(posted.body, Book).id;
    const res = await api('POST', '/api/books/reactivateBook', { token: buyer.token, body: { bookId: id } });
    expect(res.status).toBe(404);
    expectError(res.body, 'BOOK_NOT_FOUND');
  });
});
