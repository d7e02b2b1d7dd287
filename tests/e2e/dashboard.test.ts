/**
 * The purchase hand-over over HTTP, the way clients drive it: the seller posts a book, the buyer
 * adds it to the cart and checks out, an admin confirms it and marks it paid.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AdminOrderList, AuditLog, HandOverBookList, MovedBook, Statistics } from '#lib/dashboard/schemas.ts';
import { UserStatistics } from '#lib/orders/schemas.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import { api } from '#tests/helpers/e2e.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

let admin: TestUser;
let seller: TestUser;
let buyer: TestUser;

beforeAll(async () => {
  admin = await makeUser({ permissionType: 1 });
  seller = await makeUser({ firstName: 'Sella', campusMailbox: 'Box 501', paymentUsername: '@sella' });
  buyer = await makeUser({ firstName: 'Bayer', campusMailbox: 'Box 502', paymentUsername: '@bayer' });
});

/** Pages through getBooksWithStatus/{status} until the book shows up. */
async function findHandOver(status: number, bookId: string) {
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const res = await api(
      'GET',
      `/api/dashboard/getBooksWithStatus/${status}?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      {
        token: admin.token,
      },
    );
    expect(res.status).toBe(200);
    const found = expectEnvelope(res.body, HandOverBookList).find((x) => x.book.id === bookId);
    if (found) return found;
    cursor = (res.body as { next: string | null }).next;
    if (!cursor) return undefined;
  }
  return undefined;
}

describe('the hand-over from checkout to status 3, over HTTP', () => {
  // An awkward price on purpose: the 5 % fee rounds (2.125 -> 2.13) and every amount is a float that
  // the OpenAPI check of each answer (two decimals) must accept.
  it('takes a bought book through confirmBook and setBookPaid, each audited, and refuses a repeat', async () => {
    const posted = await api('POST', '/api/books/postBook', {
      token: seller.token,
      body: makeBookBody({ price: 42.5 }),
    });
    expect(posted.status).toBe(201);
    const bookId = (posted.body as { data: { id: string } }).data.id;
    expect((await api('POST', '/api/user/addToCart', { token: buyer.token, body: { bookId } })).status).toBe(
      200,
    );
    const order = await api('POST', '/api/books/checkoutCart', { token: buyer.token });
    expect(order.status).toBe(201);

    const orders = await api('GET', '/api/dashboard/getOrders?limit=50', { token: admin.token });
    const placed = expectEnvelope(orders.body, AdminOrderList).find((o) =>
      o.books.some((b) => b.id === bookId),
    );
    expect(placed).toMatchObject({
      status: 1,
      subtotal: 42.5,
      fee: 2.13,
      total: 44.63,
      buyer: { id: buyer.id },
      books: [{ id: bookId, status: 1, cancelled: false, owner: { id: seller.id } }],
    });

    const level = await api('GET', '/api/dashboard/permissionLevel', { token: admin.token });
    expect(expectEnvelope(level.body, z.strictObject({ permissionType: z.number() }))).toEqual({
      permissionType: 1,
    });

    const waiting = await findHandOver(1, bookId);
    expect(waiting).toMatchObject({
      book: { id: bookId, status: 1, buyer: { id: buyer.id } },
      owner: { id: seller.id, campusMailbox: 'Box 501', paymentUsername: '@sella' },
      buyer: { id: buyer.id, campusMailbox: 'Box 502', paymentUsername: '@bayer' },
    });

    const notAdmin = await api('POST', '/api/dashboard/confirmBook', {
      token: buyer.token,
      body: { bookId },
    });
    expect(notAdmin.status).toBe(403);
    expectError(notAdmin.body, 'ROLE_REQUIRED');

    const tooEarly = await api('POST', '/api/dashboard/setBookPaid', {
      token: admin.token,
      body: { bookId },
    });
    expect(tooEarly.status).toBe(409);

    const confirmed = await api('POST', '/api/dashboard/confirmBook', {
      token: admin.token,
      body: { bookId },
    });
    expect(confirmed.status).toBe(200);
    expect(expectEnvelope(confirmed.body, MovedBook)).toMatchObject({ id: bookId, status: 2 });
    expect((confirmed.body as { method: string }).method).toBe('POST /api/dashboard/confirmBook');

    const paid = await api('POST', '/api/dashboard/setBookPaid', { token: admin.token, body: { bookId } });
    expect(expectEnvelope(paid.body, MovedBook)).toMatchObject({ id: bookId, status: 3 });
    expect(await findHandOver(3, bookId)).toMatchObject({ book: { status: 3 } });
    // The seller's money made is the price exactly (integer cents inside, 42.50 outside).
    const sellerStats = await api('GET', '/api/user/getUserStatistics', { token: seller.token });
    expect(sellerStats.status).toBe(200);
    expect(expectEnvelope(sellerStats.body, UserStatistics).moneyMade).toBe(42.5);

    const again = await api('POST', '/api/dashboard/setBookPaid', { token: admin.token, body: { bookId } });
    expect(again.status).toBe(409);
    expectError(again.body, 'WRONG_STATUS');

    const log = await api('GET', '/api/dashboard/getAuditLog?limit=50', { token: admin.token });
    const entries = expectEnvelope(log.body, AuditLog).filter((e) => e.target.id === bookId);
    expect(entries).toMatchObject([
      { action: 'setBookPaid', actor: admin.id, before: { status: 2 }, after: { status: 3 } },
      { action: 'confirmBook', actor: admin.id, before: { status: 1 }, after: { status: 2 } },
    ]);

    const stats = await api('GET', '/api/dashboard/getStatistics', { token: admin.token });
    expect(expectEnvelope(stats.body, Statistics).booksByStatus['3']).toBeGreaterThanOrEqual(1);
  });
});
