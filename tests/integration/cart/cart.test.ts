import { describe, expect, it } from 'vitest';
import { handler as addToCartHandler } from '#functions/user/add-to-cart.ts';
import { handler as clearCartHandler } from '#functions/user/clear-cart.ts';
import { handler as getCartItemsHandler } from '#functions/user/get-cart-items.ts';
import { handler as removeFromCartHandler } from '#functions/user/remove-from-cart.ts';
import { CART_LIMIT } from '#lib/cart/cart.ts';
import { AddToCartResult, CartContents, ClearCartResult, RemoveFromCartResult } from '#lib/cart/schemas.ts';
import { bookKey, cartCountKey, cartItemKey } from '#lib/db/keys.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { DeleteCommand } from '#lib/table/commands.ts';
import { measured, startMeasuring } from '#lib/table/metrics.ts';
import { makeBook, readBook, setStoredStatus } from '#tests/helpers/books.ts';
import { addToCart, readItem } from '#tests/helpers/cart.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectEnvelope, expectError, expectOk, expectRefusal } from '#tests/helpers/schema.ts';
import { makeUser } from '#tests/helpers/users.ts';

const getCart = (token: string) => invoke(getCartItemsHandler, { route: '/api/user/getCartItems', token });
const removeFromCart = (token: string, bookId: string) =>
  invoke(removeFromCartHandler, {
    method: 'POST',
    route: '/api/user/removeFromCart',
    token,
    body: { bookId },
  });
const clearCart = (token: string) =>
  invoke(clearCartHandler, { method: 'POST', route: '/api/user/clearCart', token });

describe('addToCart', () => {
  it('puts a listed book of someone else in the cart without reserving it', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const book = await makeBook(seller);
    const res = await addToCart(buyer.token, book.id);
    expect(expectOk(res, AddToCartResult)).toEqual({
      bookId: book.id,
      inCart: true,
      added: true,
      cartSize: 1,
    });
    expect(await readItem(cartItemKey(buyer.id, book.id))).toMatchObject({ bookId: book.id });
    expect(await readBook(book.id)).toEqual(expect.objectContaining({ status: 0 }));
    expect((await readBook(book.id))?.buyerId).toBeUndefined();
  });

  it('treats adding the same book twice as harmless', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const book = await makeBook(seller);
    await addToCart(buyer.token, book.id);
    const again = await addToCart(buyer.token, book.id);
    expect(expectOk(again, AddToCartResult)).toMatchObject({ added: false, cartSize: 1 });
    expect(expectEnvelope((await getCart(buyer.token)).json(), CartContents).items).toHaveLength(1);
  });

  it('refuses one’s own book with 409', async () => {
    const owner = await makeUser();
    const book = await makeBook(owner);
    const res = await addToCart(owner.token, book.id);
    expect(res.status).toBe(409);
    expect(expectError(res.json(), 'OWN_BOOK').details).toEqual([
      { bookId: book.id, message: expect.any(String) },
    ]);
    expect(await readItem(cartItemKey(owner.id, book.id))).toBeUndefined();
  });

  for (const status of [1, 2, 3, 5]) {
    it(`refuses a book at status ${status} with 409`, async () => {
      const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
      const book = await makeBook(seller, { status: status as 1 | 2 | 3 | 5 });
      const res = await addToCart(buyer.token, book.id);
      expectRefusal(res, 409, 'BOOK_UNAVAILABLE');
      expect(await readItem(cartItemKey(buyer.id, book.id))).toBeUndefined();
    });
  }

  it('answers 404 for a book that does not exist', async () => {
    const buyer = await makeUser();
    const res = await addToCart(buyer.token, '01JUNKNOWNBOOKID000000000');
    expectRefusal(res, 404, 'NOT_FOUND');
  });

  it('refuses malformed ids and extra fields with 400, and no token with 401', async () => {
    const buyer = await makeUser();
    for (const bookId of ['', 'BOOK#x', 'a b', 'x'.repeat(65)]) {
      expect((await addToCart(buyer.token, bookId)).status, bookId).toBe(400);
    }
    const extra = await invoke(addToCartHandler, {
      method: 'POST',
      route: '/api/user/addToCart',
      token: buyer.token,
      body: { bookId: 'abc', status: 0 },
    });
    expect(extra.status).toBe(400);
    expect(expectError(extra.json(), 'VALIDATION_FAILED').details?.map((d) => d.field)).toContain('status');
    expect((await addToCart('', 'abc')).status).toBe(401);
  });

  it(`caps the cart at ${CART_LIMIT} books`, async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const books = await Promise.all(Array.from({ length: CART_LIMIT + 1 }, () => makeBook(seller)));
    for (const b of books.slice(0, CART_LIMIT)) expect((await addToCart(buyer.token, b.id)).status).toBe(200);
    const over = await addToCart(buyer.token, (books.at(-1) as { id: string }).id);
    expectRefusal(over, 409, 'CART_FULL');
    expect(await readItem(cartItemKey(buyer.id, (books.at(-1) as { id: string }).id))).toBeUndefined();
    // Re-adding a book already in a full cart is still harmless.
    const again = await addToCart(buyer.token, (books[0] as { id: string }).id);
    expect(expectOk(again, AddToCartResult)).toEqual({
      bookId: (books[0] as { id: string }).id,
      inCart: true,
      added: false,
      cartSize: CART_LIMIT,
    });
    const cart = await getCart(buyer.token);
    expect(expectOk(cart, CartContents).items.map((i) => i.id)).toEqual(
      books.slice(0, CART_LIMIT).map((b) => (b as { id: string }).id),
    );
  });

  it(`holds the cap under 40 concurrent adds: exactly ${CART_LIMIT} books in the cart, the rest 409`, async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const books = await Promise.all(Array.from({ length: 40 }, () => makeBook(seller)));
    const results = await Promise.all(books.map((b) => addToCart(buyer.token, b.id)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(CART_LIMIT);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(40 - CART_LIMIT);
    for (const r of refused) {
      expectRefusal(r, 409, 'CART_FULL');
    }
    const cart = expectEnvelope((await getCart(buyer.token)).json(), CartContents).items;
    expect(cart).toHaveLength(CART_LIMIT);
    expect(await readItem(cartCountKey(buyer.id))).toMatchObject({ count: CART_LIMIT });

    // Removing one makes room for exactly one more; clearing empties the count too.
    expect((await removeFromCart(buyer.token, cart[0]?.id ?? '')).status).toBe(200);
    const rest = books.filter((b) => !cart.some((c) => c.id === b.id));
    expect((await addToCart(buyer.token, rest[0]?.id ?? '')).status).toBe(200);
    expect((await addToCart(buyer.token, rest[1]?.id ?? '')).status).toBe(409);
    expect((await clearCart(buyer.token)).status).toBe(200);
    expect(await readItem(cartCountKey(buyer.id))).toMatchObject({ count: 0 });
  });

  it('adds in 4 calls (auth, book, cart, one transaction), starting the count of a cart that had none at its items', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const [a, b, c] = await Promise.all([makeBook(seller), makeBook(seller), makeBook(seller)]);
    await addToCart(buyer.token, a.id);
    await addToCart(buyer.token, b.id);
    // a cart from before the counter: its items, no count
    await db.send(new DeleteCommand({ TableName: TABLE, Key: cartCountKey(buyer.id) }));
    startMeasuring();
    const res = await addToCart(buyer.token, c.id);
    expect(expectOk(res, AddToCartResult)).toMatchObject({ added: true, cartSize: 3 });
    expect(measured().operations.map((o) => o.command)).toEqual([
      'GetItem',
      'GetItem',
      'Query',
      'TransactWriteItems',
    ]);
    expect(await readItem(cartCountKey(buyer.id))).toMatchObject({ count: 3 });
    // with a count, the next add moves it by one, in the same 4 calls
    const d = await makeBook(seller);
    startMeasuring();
    expect((await addToCart(buyer.token, d.id)).status).toBe(200);
    expect(measured().calls).toBe(4);
    expect(await readItem(cartCountKey(buyer.id))).toMatchObject({ count: 4 });
  });
});

describe('getCartItems', () => {
  it('lists the cart’s books in the order added, marking those no longer available', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const listed = await makeBook(seller, { price: 4.5 });
    const sold = await makeBook(seller);
    const unlisted = await makeBook(seller);
    const deleted = await makeBook(seller, { name: 'Gone For Good' });
    for (const b of [listed, sold, unlisted, deleted]) await addToCart(buyer.token, b.id);
    await setStoredStatus(sold.id, 1);
    await setStoredStatus(unlisted.id, 5);
    await db.send(new DeleteCommand({ TableName: TABLE, Key: bookKey(deleted.id) }));

    startMeasuring();
    const res = await getCart(buyer.token);
    expect(res.status).toBe(200);
    // auth GetItem + cart Query + one BatchGet, whatever the cart holds
    expect(measured().operations.map((o) => o.command)).toEqual(['GetItem', 'Query', 'BatchGetItem']);
    const cart = expectEnvelope(res.json(), CartContents);
    const items = cart.items;
    expect(items.map((i) => [i.id, i.available, i.status])).toEqual([
      [listed.id, true, 0],
      [sold.id, false, 1],
      [unlisted.id, false, 5],
      [deleted.id, false, 5],
    ]);
    expect(items[0]).toMatchObject({ price: 4.5, owner: { id: seller.id } });
    expect(items[3]?.name).toBe('Gone For Good');
    // Money over the available books only: 4.50 + 5 % fee (0.225 -> 0.23).
    expect([cart.subtotal, cart.fee, cart.total]).toEqual([4.5, 0.23, 4.73]);
  });

  it('sums the available books in cents: three $0.10 books are $0.30, fee $0.02', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    for (let i = 0; i < 3; i++) await addToCart(buyer.token, (await makeBook(seller, { price: 0.1 })).id);
    const cart = expectEnvelope((await getCart(buyer.token)).json(), CartContents);
    expect([cart.items.length, cart.subtotal, cart.fee, cart.total]).toEqual([3, 0.3, 0.02, 0.32]);
  });

  it('shows each user only their own cart', async () => {
    const [seller, one, two] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    const book = await makeBook(seller);
    await addToCart(one.token, book.id);
    expect(expectEnvelope((await getCart(two.token)).json(), CartContents)).toEqual({
      items: [],
      subtotal: 0,
      fee: 0,
      total: 0,
    });
    expect(expectEnvelope((await getCart(one.token)).json(), CartContents).items).toHaveLength(1);
  });
});

describe('removeFromCart and clearCart', () => {
  it('removes one book, harmlessly when it is not there', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const [a, b] = [await makeBook(seller), await makeBook(seller)];
    await addToCart(buyer.token, a.id);
    await addToCart(buyer.token, b.id);
    const res = await removeFromCart(buyer.token, a.id);
    expect(expectEnvelope(res.json(), RemoveFromCartResult)).toEqual({
      bookId: a.id,
      inCart: false,
      removed: true,
    });
    const again = await removeFromCart(buyer.token, a.id);
    expect(expectEnvelope(again.json(), RemoveFromCartResult)).toMatchObject({ removed: false });
    expect(expectEnvelope((await getCart(buyer.token)).json(), CartContents).items.map((i) => i.id)).toEqual([
      b.id,
    ]);
  });

  it('only ever touches the caller’s own cart', async () => {
    const [seller, one, two] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    const book = await makeBook(seller);
    expect((await addToCart(one.token, book.id)).status).toBe(200);
    const removed = await removeFromCart(two.token, book.id);
    expect(expectOk(removed, RemoveFromCartResult)).toEqual({
      bookId: book.id,
      inCart: false,
      removed: false,
    });
    const cleared = await clearCart(two.token);
    expect(expectOk(cleared, ClearCartResult)).toEqual({ removed: 0 });
    expect(await readItem(cartItemKey(one.id, book.id))).toMatchObject({ bookId: book.id });
    expect(expectEnvelope((await getCart(one.token)).json(), CartContents).items.map((i) => i.id)).toEqual([
      book.id,
    ]);
  });

  it('empties the cart', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    for (let i = 0; i < 3; i++) await addToCart(buyer.token, (await makeBook(seller)).id);
    const res = await clearCart(buyer.token);
    expect(expectEnvelope(res.json(), ClearCartResult)).toEqual({ removed: 3 });
    expect(expectEnvelope((await getCart(buyer.token)).json(), CartContents).items).toEqual([]);
    expect(expectEnvelope((await clearCart(buyer.token)).json(), ClearCartResult)).toEqual({ removed: 0 });
  });
});
