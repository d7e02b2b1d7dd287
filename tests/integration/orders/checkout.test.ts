import { describe, expect, it } from 'vitest';
import { handler as checkoutHandler } from '#functions/cart/checkout-cart.ts';
import { CART_LIMIT } from '#lib/cart/cart.ts';
import { putCartItem } from '#lib/db/cart.ts';
import { bookKey, booksByStatusPk, booksOfBuyerPk, cartItemKey, INDEX, orderKey } from '#lib/db/keys.ts';
import { commitCheckout } from '#lib/db/orders.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { buildOrder } from '#lib/orders/checkout.ts';
import { Order } from '#lib/orders/schemas.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { DeleteCommand, QueryCommand } from '#lib/table/commands.ts';
import { measured, startMeasuring } from '#lib/table/metrics.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBook, readBook, setStoredStatus } from '#tests/helpers/books.ts';
import {
  addToCart,
  checkout,
  ordersOf,
  placedOrders,
  readGlobalStats,
  readItem,
  readUserStats,
} from '#tests/helpers/cart.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { makeUser } from '#tests/helpers/users.ts';

async function inCart(token: string, books: BookRecord[]) {
  for (const b of books) expect((await addToCart(token, b.id)).status).toBe(200);
}

async function indexed(index: 'gsi1' | 'gsi3', pk: string, bookId: string): Promise<boolean> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: INDEX[index],
      KeyConditionExpression: `${index}pk = :pk`,
      ExpressionAttributeValues: { ':pk': pk },
    }),
  );
  return (out.Items ?? []).some((i) => i.id === bookId);
}

describe('checkoutCart', () => {
  it('buys every book in the cart in one go: books at status 1, order written, cart emptied, counters moved', async () => {
    const [seller1, seller2, buyer] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    const a = await makeBook(seller1, { price: 12.5 });
    const b = await makeBook(seller1, { price: 7.25 });
    const c = await makeBook(seller2, { price: 30 });
    await inCart(buyer.token, [a, b, c]);
    const globalBefore = (await readGlobalStats()) ?? {};

    const res = await checkout(buyer.token);
    expect(res.status).toBe(201);
    const order = expectEnvelope(res.json(), Order);
    expect(order.buyer).toEqual({ id: buyer.id });
    expect(order.books.map((x) => x.id)).toEqual([a.id, b.id, c.id]);
    expect(order.books[0]).toMatchObject({ price: 12.5, owner: { id: seller1.id } });
    expect(order).toMatchObject({ subtotal: 49.75, fee: 2.49, total: 52.24, status: 1 });

    for (const book of [a, b, c]) {
      const now = await readBook(book.id);
      expect(now).toMatchObject({
        status: 1,
        buyerId: buyer.id,
        orderId: order.id,
        boughtAt: order.createdAt,
      });
      expect(await indexed('gsi1', booksByStatusPk(1), book.id)).toBe(true);
      expect(await indexed('gsi1', booksByStatusPk(0), book.id)).toBe(false);
      expect(await indexed('gsi3', booksOfBuyerPk(buyer.id), book.id)).toBe(true);
      expect(await readItem(cartItemKey(buyer.id, book.id))).toBeUndefined();
    }
    const stored = await readItem(orderKey(order.id));
    expect(stored).toMatchObject({ subtotalCents: 4975, feeCents: 249, totalCents: 5224, buyerId: buyer.id });
    expect(await ordersOf(buyer.id)).toHaveLength(1);

    expect(await readUserStats(buyer.id)).toMatchObject({ booksBought: 3 });
    expect(await readUserStats(seller1.id)).toMatchObject({ booksSold: 2, activeListings: 0 });
    expect(await readUserStats(seller2.id)).toMatchObject({ booksSold: 1, activeListings: 0 });
    const globalAfter = (await readGlobalStats()) ?? {};
    const delta = (k: string) => Number(globalAfter[k] ?? 0) - Number(globalBefore[k] ?? 0);
    expect([delta('totalOrders'), delta('grossSales'), delta('feesEarned')]).toEqual([1, 4975, 249]);
    expect([delta('books_s0'), delta('books_s1')]).toEqual([-3, 3]);
  });

  it('lets exactly one of 20 buyers racing for one book have it; the other 19 get 409', async () => {
    const seller = await makeUser();
    const book = await makeBook(seller, { price: 25 });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => makeUser()));
    for (const buyer of buyers) expect((await addToCart(buyer.token, book.id)).status).toBe(200);
    const ordersBefore = (await placedOrders()).length;

    const results = await Promise.all(buyers.map((buyer) => checkout(buyer.token)));

    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const r of results.filter((x) => x.status === 409)) {
      const err = expectError(r.json(), 'BOOKS_UNAVAILABLE');
      expect(err.details).toEqual([{ bookId: book.id, message: expect.any(String) }]);
    }
    const winnerIndex = statuses.indexOf(201);
    const winner = buyers[winnerIndex];
    const order = expectEnvelope(results[winnerIndex]?.json(), Order);
    expect((await placedOrders()).length - ordersBefore).toBe(1);
    expect(await readBook(book.id)).toMatchObject({ status: 1, buyerId: winner?.id, orderId: order.id });
    expect(await readUserStats(seller.id)).toMatchObject({ booksSold: 1, activeListings: 0 });
    for (const buyer of buyers) {
      const bought = (await readUserStats(buyer.id))?.booksBought ?? 0;
      expect(bought).toBe(buyer === winner ? 1 : 0);
      // Losers keep the book in their cart (shown unavailable); the winner's cart is empty.
      expect(Boolean(await readItem(cartItemKey(buyer.id, book.id)))).toBe(buyer !== winner);
    }
  });

  it('refuses a cart with a book sold meanwhile with 409 naming it, and changes nothing', async () => {
    const [seller, buyer, rival] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    const keep = await makeBook(seller, { price: 5 });
    const gone = await makeBook(seller, { price: 6 });
    await inCart(buyer.token, [keep, gone]);
    await inCart(rival.token, [gone]);
    expect((await checkout(rival.token)).status).toBe(201);

    const before = {
      keep: await readBook(keep.id),
      gone: await readBook(gone.id),
      buyerStats: await readUserStats(buyer.id),
      sellerStats: await readUserStats(seller.id),
      global: await readGlobalStats(),
    };
    const res = await checkout(buyer.token);
    expect(res.status).toBe(409);
    const err = expectError(res.json(), 'BOOKS_UNAVAILABLE');
    expect(err.details).toEqual([{ bookId: gone.id, message: 'This book is no longer available.' }]);

    expect({
      keep: await readBook(keep.id),
      gone: await readBook(gone.id),
      buyerStats: await readUserStats(buyer.id),
      sellerStats: await readUserStats(seller.id),
      global: await readGlobalStats(),
    }).toEqual(before);
    expect(await ordersOf(buyer.id)).toEqual([]);
    expect(await readItem(cartItemKey(buyer.id, keep.id))).toBeDefined();
    expect(await readItem(cartItemKey(buyer.id, gone.id))).toBeDefined();
  });

  it('names every unavailable book: sold, unlisted and deleted ones', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const sold = await makeBook(seller);
    const unlisted = await makeBook(seller);
    const deleted = await makeBook(seller);
    const fine = await makeBook(seller);
    await inCart(buyer.token, [sold, unlisted, deleted, fine]);
    // The books change behind the cart's back (as the dashboard, deleteBook and the unlisting job would).
    await setStoredStatus(sold.id, 2);
    await setStoredStatus(unlisted.id, 5);
    await db.send(new DeleteCommand({ TableName: TABLE, Key: bookKey(deleted.id) }));
    const res = await checkout(buyer.token);
    expect(res.status).toBe(409);
    expect(expectError(res.json(), 'BOOKS_UNAVAILABLE').details).toEqual([
      { bookId: sold.id, message: 'This book is no longer available.' },
      { bookId: unlisted.id, message: 'This book is no longer available.' },
      { bookId: deleted.id, message: 'This book no longer exists.' },
    ]);
    expect(await readBook(fine.id)).toMatchObject({ status: 0 });
  });

  it('answers a retry with the same Idempotency-Key with the same order, buying nothing twice', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const book = await makeBook(seller, { price: 19.99 });
    await inCart(buyer.token, [book]);

    const first = await checkout(buyer.token, 'retry-key-1');
    expect(first.status).toBe(201);
    const again = await checkout(buyer.token, 'retry-key-1');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(expectEnvelope(again.json(), Order)).toEqual(expectEnvelope(first.json(), Order));
    expect(await ordersOf(buyer.id)).toHaveLength(1);
    expect(await readUserStats(buyer.id)).toMatchObject({ booksBought: 1 });

    // Without the key, a second attempt is a new checkout of an empty cart.
    const noKey = await checkout(buyer.token);
    expect(noKey.status).toBe(409);
    expectError(noKey.json(), 'CART_EMPTY');
  });

  it('answers concurrent requests with the same Idempotency-Key with one order', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const books = [await makeBook(seller, { price: 3 }), await makeBook(seller, { price: 4 })];
    await inCart(buyer.token, books);

    const results = await Promise.all(Array.from({ length: 5 }, () => checkout(buyer.token, 'double-click')));

    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const ids = new Set(results.map((r) => expectEnvelope(r.json(), Order).id));
    expect(ids.size).toBe(1);
    expect(await ordersOf(buyer.id)).toHaveLength(1);
    expect(await readUserStats(buyer.id)).toMatchObject({ booksBought: 2 });
  });

  it('answers 422 for an Idempotency-Key reused for a different cart', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const first = await makeBook(seller);
    const second = await makeBook(seller);
    await inCart(buyer.token, [first]);
    expect((await checkout(buyer.token, 'reused')).status).toBe(201);
    await inCart(buyer.token, [second]);

    const res = await checkout(buyer.token, 'reused');
    expect(res.status).toBe(422);
    expectError(res.json(), 'IDEMPOTENCY_KEY_REUSED');
    expect(await readBook(second.id)).toMatchObject({ status: 0 });
    expect((await checkout(buyer.token, 'fresh')).status).toBe(201);
  });

  it('answers 422, buying nothing, when a key is reused after a cancelled purchase and the same book re-added', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const book = await makeBook(seller, { price: 10 });
    await inCart(buyer.token, [book]);
    expect((await checkout(buyer.token, 'same-key')).status).toBe(201);
    await setStoredStatus(book.id, 0); // an admin cancelled the purchase
    await inCart(buyer.token, [book]);

    const res = await checkout(buyer.token, 'same-key');
    expect(res.status).toBe(422);
    expectError(res.json(), 'IDEMPOTENCY_KEY_REUSED');
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await readBook(book.id)).toMatchObject({ status: 0 });
    expect(await ordersOf(buyer.id)).toHaveLength(1);
    expect(await readItem(cartItemKey(buyer.id, book.id))).toBeDefined();
  });

  it('charges the price the buyer saw: a price raised after adding is 409 naming the book and its new price, nothing written', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const cheap = await makeBook(seller, { price: 10 });
    const other = await makeBook(seller, { price: 5 });
    await inCart(buyer.token, [cheap, other]);
    const raised = await booksApi.updateBook(seller.token, { bookId: cheap.id, price: 9999 });
    expect(raised.status).toBe(200);

    const res = await checkout(buyer.token);
    expect(res.status).toBe(409);
    const error = expectError(res.json(), 'PRICE_CHANGED');
    expect(error.details).toEqual([
      expect.objectContaining({ bookId: cheap.id, name: cheap.name, priceInCart: 10, price: 9999 }),
    ]);
    for (const b of [cheap, other]) expect(await readBook(b.id)).toMatchObject({ status: 0 });
    expect(await ordersOf(buyer.id)).toHaveLength(0);
    expect(await readItem(cartItemKey(buyer.id, cheap.id))).toMatchObject({ snapshot: { priceCents: 1000 } });

    // Adding the book again accepts the new price; then checkout charges it.
    expect((await addToCart(buyer.token, cheap.id)).status).toBe(200);
    const bought = await checkout(buyer.token);
    expect(bought.status).toBe(201);
    expect(expectEnvelope(bought.json(), Order)).toMatchObject({ subtotal: 10004 });
  });

  it('sells only the book the buyer saw: a title changed after adding is 409 BOOK_CHANGED naming the book and the field, nothing written', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const renamed = await makeBook(seller, { price: 20 });
    const other = await makeBook(seller, { price: 5 });
    await inCart(buyer.token, [renamed, other]);
    const edit = await booksApi.updateBook(seller.token, { bookId: renamed.id, name: 'A Different Book' });
    expect(edit.status).toBe(200);

    const res = await checkout(buyer.token, 'after-rename');
    expect(res.status).toBe(409);
    const error = expectError(res.json(), 'BOOK_CHANGED');
    expect(error.details).toEqual([
      {
        bookId: renamed.id,
        name: 'A Different Book',
        changed: ['name'],
        message: 'The seller changed its title since you added it.',
      },
    ]);
    for (const b of [renamed, other]) expect(await readBook(b.id)).toMatchObject({ status: 0 });
    expect(await readBook(renamed.id)).not.toHaveProperty('buyerId');
    expect(await ordersOf(buyer.id)).toHaveLength(0);
    expect(await readItem(cartItemKey(buyer.id, renamed.id))).toMatchObject({
      snapshot: { name: renamed.name },
    });

    // every other field a buyer saw is guarded the same way; a price change among them is named too
    const more = await booksApi.updateBook(seller.token, {
      bookId: other.id,
      edition: 9,
      course: 'NEW 101',
      ISBN: '0262033844',
      author: 'Someone Else',
      condition: 'acceptable',
      price: 6,
    });
    expect(more.status).toBe(200);
    const again = await checkout(buyer.token);
    expect(again.status).toBe(409);
    expect(expectError(again.json(), 'BOOK_CHANGED').details).toEqual([
      expect.objectContaining({ bookId: renamed.id, changed: ['name'] }),
      expect.objectContaining({
        bookId: other.id,
        changed: ['price', 'edition', 'course', 'ISBN', 'author', 'condition'],
        priceInCart: 5,
        price: 6,
        message:
          'The price changed from $5.00 to $6.00. The seller changed its edition, course, ISBN, author and condition since you added it.',
      }),
    ]);
    expect(await ordersOf(buyer.id)).toHaveLength(0);

    // a change of the comments alone is not one the buyer is asked about
    expect(
      (await booksApi.updateBook(seller.token, { bookId: other.id, comments: 'Typo fixed' })).status,
    ).toBe(200);
    // adding the books again accepts them as they are now; then checkout sells them
    for (const b of [renamed, other]) expect((await addToCart(buyer.token, b.id)).status).toBe(200);
    expect(await readItem(cartItemKey(buyer.id, renamed.id))).toMatchObject({
      snapshot: { name: 'A Different Book' },
    });
    const bought = await checkout(buyer.token);
    expect(bought.status).toBe(201);
    const order = expectEnvelope(bought.json(), Order);
    expect(order.books.map((b) => [b.name, b.course])).toEqual([
      ['A Different Book', renamed.course],
      [other.name, 'NEW 101'],
    ]);
  });

  it("refuses in the transaction a book edited between checkout's read and its write", async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const book = await makeBook(seller);
    await inCart(buyer.token, [book]);
    const asRead = (await readBook(book.id)) as BookRecord;
    expect((await booksApi.updateBook(seller.token, { bookId: book.id, author: 'Late Author' })).status).toBe(
      200,
    );
    const outcome = await commitCheckout({ order: buildOrder(buyer.id, [asRead]), books: [asRead] });
    expect(outcome).toMatchObject({
      ok: false,
      failures: expect.arrayContaining([
        {
          kind: 'book',
          bookId: book.id,
          current: expect.objectContaining({ author: 'Late Author', status: 0 }),
        },
      ]),
    });
    expect(await readBook(book.id)).toMatchObject({ status: 0, author: 'Late Author' });
    expect(await ordersOf(buyer.id)).toHaveLength(0);
  });

  it('keeps Idempotency-Keys per user: the same key from another user is a new checkout', async () => {
    const [seller, one, two] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    const b1 = await makeBook(seller);
    const b2 = await makeBook(seller);
    await inCart(one.token, [b1]);
    await inCart(two.token, [b2]);
    const r1 = expectEnvelope((await checkout(one.token, 'shared')).json(), Order);
    const r2 = expectEnvelope((await checkout(two.token, 'shared')).json(), Order);
    expect(r1.id).not.toBe(r2.id);
    expect(r2.buyer.id).toBe(two.id);
  });

  it('refuses malformed Idempotency-Keys with 400', async () => {
    const buyer = await makeUser();
    for (const key of ['', 'x'.repeat(256), 'has space', 'caf\u00e9']) {
      const res = await checkout(buyer.token, key);
      expect(res.status, JSON.stringify(key)).toBe(400);
      expectError(res.json(), 'VALIDATION_FAILED');
    }
  });

  it('never sells buyers their own book, even when it reached their cart', async () => {
    const [owner, seller] = await Promise.all([makeUser(), makeUser()]);
    const own = await makeBook(owner);
    const other = await makeBook(seller);
    await inCart(owner.token, [other]);
    // addToCart refuses one's own book, so put it there directly (e.g. an item older than the rule).
    await putCartItem(owner.id, own, new Date().toISOString());

    const res = await checkout(owner.token);
    expect(res.status).toBe(409);
    expect(expectError(res.json(), 'BOOKS_UNAVAILABLE').details).toEqual([
      { bookId: own.id, message: 'This is your own book.' },
    ]);
    expect(await readBook(own.id)).toMatchObject({ status: 0 });
    expect(await readBook(other.id)).toMatchObject({ status: 0 });
  });

  it('adds awkward prices to the cent and rounds the 5 % fee half up', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const prices = [0.1, 0.2, 0.7, 19.99, 33.33, 0.01];
    const books = [];
    for (const price of prices) books.push(await makeBook(seller, { price }));
    await inCart(buyer.token, books);
    const order = expectEnvelope((await checkout(buyer.token)).json(), Order);
    // 54.33 in cents is 5433; 5 % is 271.65 cents -> 272.
    expect(order).toMatchObject({ subtotal: 54.33, fee: 2.72, total: 57.05 });
    expect(order.books.map((b) => b.price)).toEqual(prices);
  });

  it('costs a fixed number of DynamoDB calls whatever the cart holds', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const books = [];
    for (let i = 0; i < 6; i++) books.push(await makeBook(seller));
    await inCart(buyer.token, books);
    startMeasuring();
    expect((await checkout(buyer.token, 'count-me')).status).toBe(201);
    // token check, Idempotency-Key record, cart, books, the transaction
    expect(measured().operations.map((o) => o.command)).toEqual([
      'GetItem',
      'GetItem',
      'Query',
      'BatchGetItem',
      'TransactWriteItems',
    ]);
  });

  it('refuses an empty cart with 409', async () => {
    const buyer = await makeUser();
    const res = await checkout(buyer.token);
    expect(res.status).toBe(409);
    expectError(res.json(), 'CART_EMPTY');
  });

  it(`checks out a full cart of ${CART_LIMIT} books from ${CART_LIMIT} sellers in one transaction`, async () => {
    const buyer = await makeUser();
    const sellers = await Promise.all(Array.from({ length: CART_LIMIT }, () => makeUser()));
    const books = await Promise.all(sellers.map((s) => makeBook(s, { price: 1.01 })));
    await inCart(buyer.token, books);
    const res = await checkout(buyer.token);
    expect(res.status).toBe(201);
    const order = expectEnvelope(res.json(), Order);
    expect(order.books).toHaveLength(CART_LIMIT);
    expect(order.subtotal).toBe(25.25);
    for (const s of sellers) expect(await readUserStats(s.id)).toMatchObject({ booksSold: 1 });
  });

  it('needs a token and takes no body', async () => {
    expect((await checkout('')).status).toBe(401);
    const buyer = await makeUser();
    const res = await invoke(checkoutHandler, {
      method: 'POST',
      route: '/api/books/checkoutCart',
      token: buyer.token,
      body: { total: 0 },
    });
    expect(res.status).toBe(400);
  });
});
