import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { processors } from '#functions/streams/processors.ts';
import { Book } from '#lib/books/schemas.ts';
import { bookKey, searchPricePk, searchTermPk } from '#lib/db/keys.ts';
import { consume } from '#lib/streams/consume.ts';
import { measured, startMeasuring } from '#lib/table/metrics.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import { addToCart } from '#tests/helpers/cart.ts';
import { makeContext } from '#tests/helpers/lambda.ts';
import { queryPartition } from '#tests/helpers/query.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { setStored } from '#tests/helpers/stored.ts';
import { asEvent, consumeAll, StreamReader, sortedCommands } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

const Books = z.array(Book);
const reader = new StreamReader();

async function post(user: TestUser, overrides: Parameters<typeof makeBookBody>[0]) {
  const res = await booksApi.postBook(user.token, makeBookBody(overrides));
  expect(res.status).toBe(201);
  return expectEnvelope(res.json(), Book);
}

const names = async (res: ReturnType<typeof booksApi.searchPublic>) => {
  const r = await res;
  expect(r.status).toBe(200);
  return expectEnvelope(r.json(), Books).map((b) => b.name);
};
const find = (q: string) => names(booksApi.searchPublic(q));

/** The stored entries of a term (every campus's partition), whole. */
const storedEntries = (term: string) => queryPartition(searchTermPk(term));
const entriesOf = async (term: string) => (await storedEntries(term)).length;

let seller: TestUser;
let shopper: TestUser;
let calculus: Book;
let algorithms: Book;
let algebra: Book;

beforeAll(async () => {
  seller = await makeUser();
  shopper = await makeUser();
  calculus = await post(seller, {
    name: 'Calculus: Early Transcendentals',
    course: 'MTH 101',
    ISBN: '978-0-306-40615-7',
  });
  algorithms = await post(seller, {
    name: 'Introduction to Algorithms',
    course: 'CSC 171',
    ISBN: '0262033844',
  });
  algebra = await post(seller, {
    name: 'Linear Algebra Done Right',
    course: 'MTH-240',
    author: 'Sheldon Axler',
  });
  await post(seller, { name: 'C++ Primer (5th ed.)', course: 'CSC 172' });
  await post(seller, { name: 'Électricité et magnétisme', course: 'PHY 210' });
  await consumeAll(reader);
});

describe('search by title words', () => {
  it('finds books by word prefixes, case-insensitively, every word required', async () => {
    expect(await find('calc')).toEqual([calculus.name]);
    expect(await find('CALC early')).toEqual([calculus.name]);
    expect(await find('calc late')).toEqual([]);
    expect(await find('intro algo')).toEqual([algorithms.name]);
    expect(await find('electricite')).toEqual(['Électricité et magnétisme']);
  });

  it('answers newest first', async () => {
    expect(await find('alg')).toEqual([algebra.name, algorithms.name]);
  });

  it('does not match the middle of a word', async () => {
    expect(await find('gebra')).toEqual([]);
  });
});

describe('search by course code', () => {
  it('treats CSC 171, csc171 and CSC-171 as the same course', async () => {
    for (const q of ['CSC 171', 'csc171', 'CSC-171', 'csc - 171'])
      expect(await find(q), q).toEqual([algorithms.name]);
    expect(await find('mth240')).toEqual([algebra.name]);
  });
});

describe('search by ISBN', () => {
  it('finds a book by ISBN-13 or its ISBN-10, hyphens and spaces ignored', async () => {
    for (const q of ['9780306406157', '978-0-306-40615-7', '0306406152', '0-306-40615-2', '0 306 40615 2'])
      expect(await find(q), q).toEqual([calculus.name]);
    for (const q of ['0262033844', '978-0-262-03384-8']) expect(await find(q), q).toEqual([algorithms.name]);
  });

  it('finds nothing for an ISBN nobody listed', async () => {
    expect(await find('9780131103627')).toEqual([]);
  });
});

describe('query handling', () => {
  it('treats regex and expression metacharacters as text', async () => {
    for (const q of ['.*', '%', '*', "' OR '1'='1", '$where', '#{name}', '\\', '[a-z]+', ':pk'])
      expect(await find(q), q).toEqual([]);
    expect(await find('calc*')).toEqual([calculus.name]);
    expect(await find('(alg')).toEqual([algebra.name, algorithms.name]);
    expect(await find('c++ primer')).toEqual(['C++ Primer (5th ed.)']);
  });

  it('refuses a query over 100 characters and bad paging parameters', async () => {
    const long = await booksApi.searchPublic('a'.repeat(101));
    expect(long.status).toBe(400);
    expectError(long.json(), 'VALIDATION_FAILED');
    expect((await booksApi.searchPublic('a'.repeat(100))).status).toBe(200);
    expect((await booksApi.searchPublic('calc', { limit: '0' })).status).toBe(400);
    expect((await booksApi.searchPublic('calc', { cursor: 'x.y' })).status).toBe(400);
  });
});

describe('search by author', () => {
  it("finds a book by its author's words like the title's", async () => {
    expect(await find('axler')).toEqual([algebra.name]);
    expect(await find('sheld linear')).toEqual([algebra.name]);
    expect(await find('axler calculus')).toEqual([]);
    expect(algebra.author).toBe('Sheldon Axler');
  });
});

describe('who sees what', () => {
  it("marks on the authenticated search which books are in the caller's cart", async () => {
    expect((await addToCart(shopper.token, algorithms.id)).status).toBe(200);
    const res = await booksApi.search(shopper.token, 'intro');
    const books = expectEnvelope(res.json(), Books);
    expect(books.map((b) => [b.id, b.inCart])).toEqual([[algorithms.id, true]]);
    const other = expectEnvelope((await booksApi.search(shopper.token, 'calc')).json(), Books);
    expect(other.map((b) => [b.id, b.inCart])).toEqual([[calculus.id, false]]);
    const anon = expectEnvelope((await booksApi.searchPublic('intro')).json(), Books);
    expect(anon[0]).not.toHaveProperty('inCart');
  });

  it("leaves the caller's own books out of the authenticated search", async () => {
    expect(await names(booksApi.search(shopper.token, 'calc'))).toEqual([calculus.name]);
    expect(await names(booksApi.search(seller.token, 'calc'))).toEqual([]);
    const anon = await booksApi.search(undefined, 'calc');
    expect(anon.status).toBe(401);
  });

  it('drops an unlisted book with its index entries once the consumer ran, and finds it again when re-listed', async () => {
    const book = await post(seller, { name: 'Thermodynamics Unlisted', course: 'PHY 330' });
    await consumeAll(reader);
    expect(await find('thermo')).toEqual([book.name]);
    await booksApi.deleteBook(seller.token, { bookId: book.id });
    await consumeAll(reader);
    expect(await find('thermo')).toEqual([]);
    expect(await entriesOf('T#thermo')).toBe(0);
    expect(await entriesOf('C#PHY330')).toBe(0);
    await booksApi.reactivateBook(seller.token, { bookId: book.id });
    await consumeAll(reader);
    expect(await find('thermo')).toEqual([book.name]);
    expect(await entriesOf('T#thermo')).toBe(1);
  });

  it('drops a sold book with its entries once the consumer ran', async () => {
    const book = await post(seller, { name: 'Organic Chemistry Sold', course: 'CHM 201' });
    await consumeAll(reader);
    expect(await find('organic')).toEqual([book.name]);
    await setStored(bookKey(book.id), { status: 1, buyerId: shopper.id });
    await consumeAll(reader);
    expect(await find('organic')).toEqual([]);
    expect(await find('chm201')).toEqual([]);
    expect(await entriesOf('T#organic')).toBe(0);
  });

  it('removes the entries of a book removed for good', async () => {
    const book = await post(seller, { name: 'Zoology Removed', ISBN: '9780131103627' });
    await consumeAll(reader);
    expect(await entriesOf('I#9780131103627')).toBe(1);
    await booksApi.deleteBook(seller.token, { bookId: book.id, permanent: true });
    await consumeAll(reader);
    expect(await entriesOf('I#9780131103627')).toBe(0);
    expect(await entriesOf('T#zoology')).toBe(0);
  });

  it('applies a redelivered stream record once: the index is the same after a replay', async () => {
    const book = await post(seller, { name: 'Astronomy Twice' });
    const records = await consumeAll(reader);
    await consume(asEvent(records), makeContext(), processors);
    expect(await entriesOf('T#astronomy')).toBe(1);
    expect(await find('astro')).toEqual([book.name]);
  });
});

describe('search pages', () => {
  it('neither repeats nor skips books, newest first, also while new ones are posted', async () => {
    const posted: string[] = [];
    for (let i = 0; i < 11; i++) posted.push((await post(seller, { name: `Geology part ${i}` })).id);
    await consumeAll(reader);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await booksApi.searchPublic('geology', { limit: '4', ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      seen.push(...expectEnvelope(res.json(), Books).map((b) => b.id));
      cursor = res.json<{ next: string | null }>().next;
      if (pages++ === 0) {
        await post(seller, { name: 'Geology posted meanwhile' });
        await consumeAll(reader);
      }
    } while (cursor && pages < 10);
    expect(seen).toEqual([...posted].reverse());
  });

  it('refuses a cursor issued for another query', async () => {
    const first = await booksApi.searchPublic('geology', { limit: '2' });
    const cursor = first.json<{ next: string }>().next;
    expect(cursor).toEqual(expect.any(String));
    const res = await booksApi.searchPublic('calc', { cursor });
    expect(res.status).toBe(400);
  });
});

describe('list fields on the search entries', () => {
  it('answers a page from the entries alone: one Query per term, no BatchGet of books', async () => {
    const book = await post(seller, { name: 'Hydrology Fields', course: 'GEO 310', price: 42.5 });
    await consumeAll(reader);
    const [entry] = await storedEntries('T#hydrology');
    expect(entry).toMatchObject({
      id: book.id,
      name: book.name,
      priceCents: 4250,
      condition: book.condition,
    });
    expect(entry).toMatchObject({
      gsi4pk: searchPricePk('T#hydrology'),
      gsi4sk: expect.stringMatching(/^0004250#/),
    });
    startMeasuring();
    const res = await booksApi.searchPublic('hydrology');
    expect(expectEnvelope(res.json(), Books)).toEqual([book]);
    // relevance (the default): the term's Query serves the title and the author tiers, then the
    // typo tier's one BatchGet of the vocabulary (no indexed word is one edit from "hydrology")
    expect(measured().operations.map((o) => o.command)).toEqual(['Query', 'BatchGetItem']);
    startMeasuring();
    const newest = await booksApi.searchPublic('hydrology', { sort: 'newest' });
    expect(expectEnvelope(newest.json(), Books)).toEqual([book]);
    expect(measured().operations.map((o) => o.command)).toEqual(['Query']);
    startMeasuring();
    const withToken = await booksApi.search(shopper.token, 'geo-310', { sort: 'price-desc' });
    expect(expectEnvelope(withToken.json(), Books).map((b) => [b.id, b.price, b.inCart])).toEqual([
      [book.id, 42.5, false],
    ]);
    // auth GetItem, the two terms' Queries (C#GEO310, T#geo), the cart BatchGet of the page's keys
    expect(sortedCommands()).toEqual(['BatchGetItem', 'GetItem', 'Query', 'Query']);
  });

  it('rewrites the entries when the price or condition changes, and moves them in the price order', async () => {
    const book = await post(seller, { name: 'Seismology Repriced', price: 30, condition: 'good' });
    await consumeAll(reader);
    const res = await booksApi.updateBook(seller.token, {
      bookId: book.id,
      price: 12.25,
      condition: 'like new',
    });
    expect(res.status).toBe(200);
    await consumeAll(reader);
    const entries = await storedEntries('T#seismology');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      priceCents: 1225,
      condition: 'like-new',
      gsi4sk: expect.stringMatching(/^0001225#/),
    });
    const found = expectEnvelope((await booksApi.searchPublic('seismology')).json(), Books);
    expect(found.map((b) => [b.id, b.price, b.condition])).toEqual([[book.id, 12.25, 'like-new']]);
    const cheap = await booksApi.searchPublic('seismology', { sort: 'price-asc', maxPrice: '13' });
    expect(expectEnvelope(cheap.json(), Books).map((b) => b.id)).toEqual([book.id]);
    const dear = await booksApi.searchPublic('seismology', { sort: 'price-asc', minPrice: '13' });
    expect(expectEnvelope(dear.json(), Books)).toEqual([]);
  });

  it('removes the entries of a book hidden by reports, and writes nothing for a change no list shows', async () => {
    const book = await post(seller, { name: 'Volcanology Hidden' });
    await consumeAll(reader);
    await setStored(bookKey(book.id), { reportCount: 1 });
    startMeasuring();
    await consumeAll(reader);
    expect(measured().operations.map((o) => o.command)).not.toContain('BatchWriteItem');
    expect(await entriesOf('T#volcanology')).toBe(1);
    await setStored(bookKey(book.id), { hidden: true });
    await consumeAll(reader);
    expect(await entriesOf('T#volcanology')).toBe(0);
    expect(await find('volcanology')).toEqual([]);
  });
});
