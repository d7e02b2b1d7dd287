import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AddToCartResult, CartContents } from '#lib/cart/schemas.ts';
import { Order, PurchasedBook, SoldBook, UserStatistics } from '#lib/orders/schemas.ts';
import { makeBook } from '#tests/helpers/books.ts';
import { api } from '#tests/helpers/e2e.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { makeUser } from '#tests/helpers/users.ts';

describe('a purchase over HTTP', () => {
  it('goes from cart to order to both sides’ history and statistics, and a retry buys nothing twice', async () => {
    const [seller, buyer, rival] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    const book = await makeBook(seller, { price: 15.55 });

    const added = await api('POST', '/api/user/addToCart', { token: buyer.token, body: { bookId: book.id } });
    expect(added.status).toBe(200);
    expect(expectEnvelope(added.body, AddToCartResult)).toMatchObject({ added: true, cartSize: 1 });
    expect(
      (await api('POST', '/api/user/addToCart', { token: rival.token, body: { bookId: book.id } })).status,
    ).toBe(200);

    const cart = await api('GET', '/api/user/getCartItems', { token: buyer.token });
    expect(cart.status).toBe(200);
    expect(expectEnvelope(cart.body, CartContents)).toEqual({
      items: [expect.objectContaining({ id: book.id, available: true, status: 0, price: 15.55 })],
      subtotal: 15.55,
      fee: 0.78,
      total: 16.33,
    });
    expect((cart.body as { method: string }).method).toBe('GET /api/user/getCartItems');

    const key = randomUUID();
    const bought = await api('POST', '/api/books/checkoutCart', {
      token: buyer.token,
      headers: { 'Idempotency-Key': key },
    });
    expect(bought.status).toBe(201);
    const order = expectEnvelope(bought.body, Order);
    expect(order).toMatchObject({ subtotal: 15.55, fee: 0.78, total: 16.33, buyer: { id: buyer.id } });

    const retry = await api('POST', '/api/books/checkoutCart', {
      token: buyer.token,
      headers: { 'Idempotency-Key': key },
    });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(expectEnvelope(retry.body, Order)).toEqual(order);

    // The rival's cart still holds the book, now unavailable; their checkout is refused.
    const rivalCart = expectEnvelope(
      (await api('GET', '/api/user/getCartItems', { token: rival.token })).body,
      CartContents,
    );
    expect(rivalCart.items).toEqual([expect.objectContaining({ id: book.id, available: false, status: 1 })]);
    expect(rivalCart.total).toBe(0);
    const refused = await api('POST', '/api/books/checkoutCart', { token: rival.token });
    expect(refused.status).toBe(409);
    expect(expectError(refused.body, 'BOOKS_UNAVAILABLE').details).toEqual([
      { bookId: book.id, message: expect.any(String) },
    ]);

    const history = await api('GET', '/api/user/getPurchasedBooks', { token: buyer.token });
    expect(history.status).toBe(200);
    expect(expectEnvelope(history.body, z.array(PurchasedBook))).toEqual([
      expect.objectContaining({ id: book.id, status: 1, orderId: order.id, buyer: { id: buyer.id } }),
    ]);
    expect((history.body as { next: unknown }).next).toBeNull();

    const sales = await api('GET', '/api/user/getSoldBooks', { token: seller.token });
    expect(expectEnvelope(sales.body, z.array(SoldBook))).toEqual([
      expect.objectContaining({ id: book.id, status: 1 }),
    ]);

    const buyerStats = await api('GET', '/api/user/getUserStatistics', { token: buyer.token });
    expect(expectEnvelope(buyerStats.body, UserStatistics)).toMatchObject({ numberOfBooksBought: 1 });
    const sellerStats = await api('GET', '/api/user/getUserStatistics', { token: seller.token });
    expect(expectEnvelope(sellerStats.body, UserStatistics)).toEqual({
      numberOfBooksBought: 0,
      numberOfBooksSold: 1,
      moneyMade: 0,
      activeListings: 0,
      openRequests: 0,
    });

    const empty = await api('GET', '/api/user/getCartItems', { token: buyer.token });
    expect(expectEnvelope(empty.body, CartContents).items).toEqual([]);
  });

  it('needs a bearer token on every cart route', async () => {
    for (const [method, path] of [
      ['POST', '/api/user/addToCart'],
      ['POST', '/api/user/removeFromCart'],
      ['POST', '/api/user/clearCart'],
      ['GET', '/api/user/getCartItems'],
      ['GET', '/api/user/getPurchasedBooks'],
      ['GET', '/api/user/getSoldBooks'],
      ['GET', '/api/user/getUserStatistics'],
      ['POST', '/api/books/checkoutCart'],
    ] as const) {
      const res = await api(method, path);
      expect(res.status, path).toBe(401);
      expectError(res.body, 'TOKEN_MISSING');
    }
  });
});
