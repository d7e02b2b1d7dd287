import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { putCartItem } from '#lib/db/cart.ts';
import { bookKey, orderKey } from '#lib/db/keys.ts';
import { commitCheckout } from '#lib/db/orders.ts';
import type { BookRecord, OrderRecord } from '#lib/db/records.ts';
import { makeBook, readBook } from '#tests/helpers/books.ts';
import { readGlobalStats, readItem, readUserStats } from '#tests/helpers/cart.ts';
import { setStored } from '#tests/helpers/stored.ts';
import { makeUser } from '#tests/helpers/users.ts';

function orderFor(buyerId: string, books: BookRecord[]): OrderRecord {
  return {
    type: 'order',
    id: ulid(),
    buyerId,
    books: [],
    bookIds: books.map((b) => b.id),
    sellerIds: [...new Set(books.map((b) => b.ownerId))],
    subtotalCents: 100,
    feeCents: 5,
    totalCents: 105,
    status: 1,
    createdAt: new Date().toISOString(),
  };
}

// The transaction itself, without the reads checkout does first: its conditions alone must stop
// a stale plan (a book sold, repriced or taken out of the cart after it was read).
describe('the checkout transaction', () => {
  it('writes nothing and reports the sold book with its current state when a book was taken after the read', async () => {
    const [seller, buyer, rival] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    const a = await makeBook(seller);
    const b = await makeBook(seller);
    for (const book of [a, b]) await putCartItem(buyer.id, book, new Date().toISOString());
    await putCartItem(rival.id, b, new Date().toISOString());
    const stale = [a, b]; // read while both were listed
    expect(await commitCheckout({ order: orderFor(rival.id, [b]), books: [b] })).toEqual({ ok: true });
    const statsBefore = [
      await readUserStats(buyer.id),
      await readUserStats(seller.id),
      await readGlobalStats(),
    ];

    const order = orderFor(buyer.id, stale);
    const outcome = await commitCheckout({ order, books: stale });

    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failures).toHaveLength(1);
    expect(outcome.failures[0]).toMatchObject({
      kind: 'book',
      bookId: b.id,
      current: { status: 1, buyerId: rival.id },
    });
    expect(await readItem(orderKey(order.id))).toBeUndefined();
    expect(await readBook(a.id)).toMatchObject({ status: 0 });
    expect([await readUserStats(buyer.id), await readUserStats(seller.id), await readGlobalStats()]).toEqual(
      statsBefore,
    );
  });

  it('refuses a book whose price changed after the read', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const book = await makeBook(seller, { price: 10 });
    await putCartItem(buyer.id, book, new Date().toISOString());
    await setStored(bookKey(book.id), { priceCents: 9900 });
    const outcome = await commitCheckout({ order: orderFor(buyer.id, [book]), books: [book] });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failures[0]).toMatchObject({ kind: 'book', current: { status: 0, priceCents: 9900 } });
    expect(await readBook(book.id)).toMatchObject({ status: 0 });
  });

  it('refuses when a cart item was removed after the read', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const book = await makeBook(seller);
    const outcome = await commitCheckout({ order: orderFor(buyer.id, [book]), books: [book] });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failures).toEqual([{ kind: 'cartItem', bookId: book.id }]);
    expect(await readBook(book.id)).toMatchObject({ status: 0 });
  });
});
