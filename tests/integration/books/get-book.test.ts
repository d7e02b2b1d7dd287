import { beforeAll, describe, expect, it } from 'vitest';
import { Book } from '#lib/books/schemas.ts';
import { measured, startMeasuring } from '#lib/table/metrics.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBook, readBook, setBookStatus } from '#tests/helpers/books.ts';
import { addToCart, checkout } from '#tests/helpers/cart.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

let seller: TestUser;
let buyer: TestUser;
let stranger: TestUser;
let admin: TestUser;

beforeAll(async () => {
  [seller, buyer, stranger, admin] = await Promise.all([
    makeUser({ firstName: 'Sam' }),
    makeUser(),
    makeUser(),
    makeUser({ permissionType: 1 }),
  ]);
});

describe('getBook', () => {
  it('shows a listed book to anyone; with a token, with inCart', async () => {
    const book = await makeBook(seller, { price: 12.5, author: 'Ada Lovelace' });
    const anon = await booksApi.getBook(book.id);
    expect(anon.status).toBe(200);
    const shown = expectEnvelope(anon.json(), Book);
    expect(shown).toMatchObject({ id: book.id, status: 0, price: 12.5, author: 'Ada Lovelace' });
    expect(shown).not.toHaveProperty('inCart');
    expect(shown).not.toHaveProperty('orderId');

    expect((await addToCart(buyer.token, book.id)).status).toBe(200);
    expect(expectEnvelope((await booksApi.getBook(book.id, buyer.token)).json(), Book).inCart).toBe(true);
    expect(expectEnvelope((await booksApi.getBook(book.id, stranger.token)).json(), Book).inCart).toBe(false);
  });

  it('shows a status-1 book only to its buyer, its seller and an admin; 404 to a stranger and anonymously', async () => {
    const book = await makeBook(seller);
    expect((await addToCart(buyer.token, book.id)).status).toBe(200);
    const bought = await checkout(buyer.token);
    expect(bought.status).toBe(201);
    const orderId = (bought.json() as { data: { id: string } }).data.id;
    expect(await readBook(book.id)).toMatchObject({ status: 1, buyerId: buyer.id, orderId });

    // with the order that bought it, so the book's page leads to the order's (its hand-over)
    for (const who of [buyer, seller, admin]) {
      const res = await booksApi.getBook(book.id, who.token);
      expect(res.status).toBe(200);
      expect(expectEnvelope(res.json(), Book)).toMatchObject({
        id: book.id,
        status: 1,
        buyer: { id: buyer.id },
        orderId,
      });
    }
    for (const token of [stranger.token, undefined]) {
      const res = await booksApi.getBook(book.id, token);
      expect(res.status).toBe(404);
      expectError(res.json(), 'BOOK_NOT_FOUND');
    }
  });

  it('hides an unlisted book from everyone but its owner and admins', async () => {
    const book = await setBookStatus(await makeBook(seller), 5);
    expect((await booksApi.getBook(book.id, seller.token)).status).toBe(200);
    expect((await booksApi.getBook(book.id, admin.token)).status).toBe(200);
    expect((await booksApi.getBook(book.id, stranger.token)).status).toBe(404);
    expect((await booksApi.getBook(book.id)).status).toBe(404);
  });

  it('hides a book hidden by reports from strangers, as if not listed; its owner and admins still see it', async () => {
    const book = await makeBook(seller, { hidden: true });
    expect((await booksApi.getBook(book.id, seller.token)).status).toBe(200);
    expect((await booksApi.getBook(book.id, admin.token)).status).toBe(200);
    expect((await booksApi.getBook(book.id, stranger.token)).status).toBe(404);
    expect((await booksApi.getBook(book.id)).status).toBe(404);
  });

  it('answers 404 for a book that does not exist and 400 for an id that cannot be one', async () => {
    expect((await booksApi.getBook('01JNOSUCHBOOK000000000000')).status).toBe(404);
    expect((await booksApi.getBook('BOOK#x')).status).toBe(400);
  });

  it('reads the same number of items whatever the table holds: one GetItem, plus one BatchGet with a token', async () => {
    const book = await makeBook(seller);
    startMeasuring();
    expect((await booksApi.getBook(book.id)).status).toBe(200);
    expect(measured().operations.map((o) => o.command)).toEqual(['GetItem']);
    startMeasuring();
    expect((await booksApi.getBook(book.id, buyer.token)).status).toBe(200);
    expect(measured().operations.map((o) => o.command)).toEqual(['GetItem', 'GetItem', 'BatchGetItem']);
  });
});
