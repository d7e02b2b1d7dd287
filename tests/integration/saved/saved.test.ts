/** Saving books: saveBook, unsaveBook, getSavedBooks (docs/saved.md). */
import { describe, expect, it } from 'vitest';
import { bookKey, savedBookKey, savedCountKey } from '#lib/db/keys.ts';
import { SAVED_LIMIT } from '#lib/saved/saved.ts';
import { SaveBookResult, SavedBook, UnsaveBookResult } from '#lib/saved/schemas.ts';
import { measured, startMeasuring } from '#lib/table/metrics.ts';
import * as z from '#lib/zod.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBook } from '#tests/helpers/books.ts';
import { addToCart, checkout, readItem } from '#tests/helpers/cart.ts';
import { getSavedBooks, saveBook, unsaveBook } from '#tests/helpers/saved.ts';
import { expectEnvelope, expectError, expectOk, expectRefusal } from '#tests/helpers/schema.ts';
import { setStored } from '#tests/helpers/stored.ts';
import { makeUser } from '#tests/helpers/users.ts';

const savedList = async (token: string, query?: Record<string, string>) => {
  const res = await getSavedBooks(token, query);
  return { items: expectOk(res, z.array(SavedBook)), next: res.json<{ next: string | null }>().next };
};

describe('saveBook', () => {
  it('saves a listed book of someone else (201), and saving it again is harmless (200)', async () => {
    const [seller, saver] = await Promise.all([makeUser(), makeUser()]);
    const book = await makeBook(seller, { price: 12.5 });
    const res = await saveBook(saver.token, book.id);
    expect(res.status).toBe(201);
    expect(expectEnvelope(res.json(), SaveBookResult)).toEqual({ bookId: book.id, saved: true, added: true });
    expect(await readItem(savedBookKey(saver.id, book.id))).toMatchObject({
      type: 'savedBook',
      userId: saver.id,
      bookId: book.id,
      gsi2pk: `SAVERS#${book.id}`,
      snapshot: { priceCents: 1250 },
    });
    expect(await readItem(savedCountKey(saver.id))).toMatchObject({ count: 1 });

    const again = await saveBook(saver.token, book.id);
    expect(again.status).toBe(200);
    expect(expectOk(again, SaveBookResult)).toEqual({ bookId: book.id, saved: true, added: false });
    expect(await readItem(savedCountKey(saver.id))).toMatchObject({ count: 1 });
    // a save reserves nothing
    expect(await readItem(bookKey(book.id))).toMatchObject({ status: 0 });
  });

  it('answers 404 for an unknown book and for one hidden by reports, saving nothing', async () => {
    const [seller, saver] = await Promise.all([makeUser(), makeUser()]);
    expectRefusal(await saveBook(saver.token, '01JUNKNOWNBOOKID000000000'), 404, 'BOOK_NOT_FOUND');
    const hidden = await makeBook(seller);
    await setStored(bookKey(hidden.id), { hidden: true });
    expectRefusal(await saveBook(saver.token, hidden.id), 404, 'BOOK_NOT_FOUND');
    expect(await readItem(savedBookKey(saver.id, hidden.id))).toBeUndefined();
    // a stranger cannot tell a sold or unlisted book from one that never existed
    for (const status of [1, 5] as const) {
      const gone = await makeBook(seller, { status });
      expectRefusal(await saveBook(saver.token, gone.id), 404, 'BOOK_NOT_FOUND');
    }
    expect(await readItem(savedCountKey(saver.id))).toBeUndefined();
  });

  it('refuses one’s own book with 409', async () => {
    const owner = await makeUser();
    const book = await makeBook(owner);
    expectRefusal(await saveBook(owner.token, book.id), 409, 'OWN_BOOK');
    expect(await readItem(savedBookKey(owner.id, book.id))).toBeUndefined();
  });

  it('refuses malformed ids and extra fields with 400, and no token with 401', async () => {
    const saver = await makeUser();
    for (const bookId of ['', 'BOOK#x', 'a b', 'x'.repeat(65)]) {
      expect((await saveBook(saver.token, bookId)).status, bookId).toBe(400);
    }
    expect((await saveBook('', 'abc')).status).toBe(401);
    expect((await getSavedBooks('')).status).toBe(401);
  });

  it(`holds ${SAVED_LIMIT} saved books under concurrent saves: exactly the room left is saved, the rest 409`, async () => {
    const [seller, saver] = await Promise.all([makeUser(), makeUser()]);
    // a saver 5 short of the limit (the count is what the limit is checked against)
    await setStored(savedCountKey(saver.id), { count: SAVED_LIMIT - 5, type: 'savedCount' });
    const books = await Promise.all(Array.from({ length: 12 }, () => makeBook(seller)));
    const results = await Promise.all(books.map((b) => saveBook(saver.token, b.id)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(expectError(r.json(), 'SAVED_FULL')).toBeDefined();
    for (const r of refused) expect(r.status).toBe(409);
    expect(await readItem(savedCountKey(saver.id))).toMatchObject({ count: SAVED_LIMIT });
    expect((await savedList(saver.token)).items).toHaveLength(5);

    // unsaving one makes room for exactly one more
    const savedIds = books.filter((_b, i) => results[i]?.status === 201).map((b) => b.id);
    const rest = books.filter((b) => !savedIds.includes(b.id));
    expect((await unsaveBook(saver.token, savedIds[0] as string)).status).toBe(200);
    expect((await saveBook(saver.token, rest[0]?.id as string)).status).toBe(201);
    expectRefusal(await saveBook(saver.token, rest[1]?.id as string), 409, 'SAVED_FULL');
    // saving one already saved at the limit is still harmless
    const atLimit = await saveBook(saver.token, savedIds[1] as string);
    expect(atLimit.status, atLimit.body).toBe(200);
    expect(await readItem(savedCountKey(saver.id))).toMatchObject({ count: SAVED_LIMIT });
  });

  it('saves in 3 calls: the sign-in read, the book, one transaction', async () => {
    const [seller, saver] = await Promise.all([makeUser(), makeUser()]);
    const book = await makeBook(seller);
    startMeasuring();
    expect((await saveBook(saver.token, book.id)).status).toBe(201);
    expect(measured().operations.map((o) => o.command)).toEqual(['GetItem', 'GetItem', 'TransactWriteItems']);
  });
});

describe('unsaveBook', () => {
  it('unsaves and uncounts a saved book; unsaving again is harmless', async () => {
    const [seller, saver] = await Promise.all([makeUser(), makeUser()]);
    const book = await makeBook(seller);
    await saveBook(saver.token, book.id);
    const res = await unsaveBook(saver.token, book.id);
    expect(expectOk(res, UnsaveBookResult)).toEqual({ bookId: book.id, saved: false, removed: true });
    expect(await readItem(savedBookKey(saver.id, book.id))).toBeUndefined();
    expect(await readItem(savedCountKey(saver.id))).toMatchObject({ count: 0 });
    const again = await unsaveBook(saver.token, book.id);
    expect(expectOk(again, UnsaveBookResult)).toEqual({ bookId: book.id, saved: false, removed: false });
    expect(await readItem(savedCountKey(saver.id))).toMatchObject({ count: 0 });
    expect((await savedList(saver.token)).items).toEqual([]);
  });
});

describe('getSavedBooks', () => {
  it('lists saved books newest saved first with their current price and availability after a price change and a sale', async () => {
    const [seller, saver, buyer] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    const cheaper = await makeBook(seller, { price: 30 });
    const sold = await makeBook(seller, { price: 20 });
    const unlisted = await makeBook(seller, { price: 10 });
    const hidden = await makeBook(seller, { price: 8 });
    for (const b of [cheaper, sold, unlisted, hidden])
      expect((await saveBook(saver.token, b.id)).status).toBe(201);

    expect((await booksApi.updateBook(seller.token, { bookId: cheaper.id, price: 24.5 })).status).toBe(200);
    expect((await addToCart(buyer.token, sold.id)).status).toBe(200);
    expect((await checkout(buyer.token)).status).toBe(201);
    expect((await booksApi.deleteBook(seller.token, { bookId: unlisted.id })).status).toBe(200);
    await setStored(bookKey(hidden.id), { hidden: true, name: 'Renamed while hidden' });
    expect(await readItem(bookKey(sold.id))).toMatchObject({ status: 1 });

    startMeasuring();
    const { items, next } = await savedList(saver.token);
    // auth, one Query of the saved page, one BatchGetItem of its books
    expect(measured().operations.map((o) => o.command)).toEqual(['GetItem', 'Query', 'BatchGetItem']);
    expect(next).toBeNull();
    expect(items.map((i) => i.id)).toEqual([hidden.id, unlisted.id, sold.id, cheaper.id]);
    const byId = new Map(items.map((i) => [i.id, i]));
    expect(byId.get(cheaper.id)).toMatchObject({
      available: true,
      price: 24.5,
      priceWhenSaved: 30,
      status: 0,
    });
    expect(byId.get(sold.id)).toMatchObject({ available: false, price: 20, status: 1 });
    expect(byId.get(sold.id)?.buyer).toBeUndefined();
    expect(byId.get(unlisted.id)).toMatchObject({ available: false, status: 5 });
    // hidden by reports: shown as it was when saved, unlisted
    expect(byId.get(hidden.id)).toMatchObject({ available: false, status: 5, name: hidden.name, price: 8 });
  });

  it('pages with cursors bound to the caller', async () => {
    const [seller, saver, other] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    const books = [];
    for (let i = 0; i < 3; i++) {
      const b = await makeBook(seller);
      books.push(b);
      expect((await saveBook(saver.token, b.id)).status).toBe(201);
    }
    const first = await savedList(saver.token, { limit: '2' });
    expect(first.items.map((i) => i.id)).toEqual([books[2]?.id, books[1]?.id]);
    expect(first.next).toEqual(expect.any(String));
    const second = await savedList(saver.token, { limit: '2', cursor: first.next as string });
    expect(second.items.map((i) => i.id)).toEqual([books[0]?.id]);
    expect(second.next).toBeNull();
    // someone else's cursor is refused
    expect((await getSavedBooks(other.token, { cursor: first.next as string })).status).toBe(400);
    expect((await getSavedBooks(saver.token, { limit: '101' })).status).toBe(400);
  });
});
