import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { handler as cancelPurchase } from '#functions/dashboard/cancel-purchase.ts';
import { handler as getOrder } from '#functions/user/get-order.ts';
import { handler as getOrders } from '#functions/user/get-orders.ts';
import { SentMessage } from '#lib/conversations/schemas.ts';
import { Order, OrderWithStatus } from '#lib/orders/schemas.ts';
import { apiPhotos } from '#lib/values/photos.ts';
import { makeBook } from '#tests/helpers/books.ts';
import { addToCart, checkout, ordersOf } from '#tests/helpers/cart.ts';
import { askSeller, getConversation } from '#tests/helpers/conversations.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

const orders = (token: string, query?: Record<string, string>) =>
  invoke(getOrders, { route: '/api/user/getOrders', token, query });
const order = (token: string, orderId: string) =>
  invoke(getOrder, { route: '/api/user/getOrder/{orderId}', pathParameters: { orderId }, token });

let seller: TestUser;
let buyer: TestUser;
let other: TestUser;

async function buy(who: TestUser, prices: number[]) {
  for (const price of prices)
    expect((await addToCart(who.token, (await makeBook(seller, { price })).id)).status).toBe(200);
  const res = await checkout(who.token);
  expect(res.status).toBe(201);
  return expectEnvelope(res.json(), Order);
}

beforeAll(async () => {
  [seller, buyer, other] = await Promise.all([makeUser(), makeUser(), makeUser()]);
});

describe("the caller's orders", () => {
  it('lists them newest first, a page at a time, neither repeating nor skipping', async () => {
    const placed = [await buy(buyer, [1]), await buy(buyer, [2, 3]), await buy(buyer, [4])];
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await orders(buyer.token, { limit: '2', ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      seen.push(...expectEnvelope(res.json(), z.array(Order)).map((o) => o.id));
      cursor = res.json<{ next: string | null }>().next ?? undefined;
    } while (cursor);
    expect(seen).toEqual(placed.map((o) => o.id).reverse());
    expect((await ordersOf(buyer.id)).map((o) => o.id).sort()).toEqual([...seen].sort());
    expect(expectEnvelope((await orders(other.token)).json(), z.array(Order))).toEqual([]);
  });

  it('opens one order with each book and its status now, a cancelled one marked', async () => {
    const placed = await buy(buyer, [10, 0.1]);
    const admin = await makeUser({ permissionType: 1 });
    const cancelled = placed.books[1]?.id ?? '';
    const res = await invoke(cancelPurchase, {
      method: 'POST',
      route: '/api/dashboard/cancelPurchase',
      token: admin.token,
      body: { bookId: cancelled, reason: 'Lost.' },
    });
    expect(res.status).toBe(200);
    const got = await order(buyer.token, placed.id);
    expect(got.status).toBe(200);
    const shown = expectEnvelope(got.json(), OrderWithStatus);
    // checkout charged 10.10 + 0.51; the cancelled 0.10 book and its 0.01 fee share are in no total
    expect(placed).toMatchObject({ subtotal: 10.1, fee: 0.51, total: 10.61 });
    expect(shown).toMatchObject({ id: placed.id, subtotal: 10, fee: 0.5, total: 10.5 });
    expect(shown.books.map((b) => [b.id, b.status, b.cancelled])).toEqual([
      [placed.books[0]?.id, 1, false],
      [cancelled, 0, true],
    ]);
  });

  it("gives each book's picture now: its photos, else the cover its ISBN lookup found", async () => {
    const cover = 'https://covers.openlibrary.org/b/id/8739161-L.jpg';
    const pictured = await makeBook(seller, { photos: [{ id: 'p1' }, { id: 'p2' }] });
    const covered = await makeBook(seller, { coverUrl: cover });
    const plain = await makeBook(seller);
    for (const b of [pictured, covered, plain]) expect((await addToCart(buyer.token, b.id)).status).toBe(200);
    const placed = expectEnvelope((await checkout(buyer.token)).json(), Order);
    const shown = expectEnvelope((await order(buyer.token, placed.id)).json(), OrderWithStatus);
    const byId = new Map(shown.books.map((b) => [b.id, b]));
    expect(byId.get(pictured.id)?.photos).toEqual(apiPhotos(pictured.id, [{ id: 'p1' }, { id: 'p2' }]));
    expect(byId.get(pictured.id)?.photos[0]?.thumbnailUrl).toMatch(/^https?:\/\/.+p1/);
    expect(byId.get(covered.id)).toMatchObject({ photos: [], coverUrl: cover });
    expect(byId.get(plain.id)?.photos).toEqual([]);
    expect(byId.get(plain.id)).not.toHaveProperty('coverUrl');
    // the seller's part shows the same pictures
    const part = expectEnvelope((await order(seller.token, placed.id)).json(), OrderWithStatus);
    expect(part.books.find((b) => b.id === pictured.id)?.photos).toHaveLength(2);
  });

  it("answers 404 for another user's order, and for one that does not exist", async () => {
    const placed = await buy(buyer, [5]);
    for (const [token, id] of [
      [other.token, placed.id],
      [buyer.token, '01JNOSUCHORDER00000000000'],
    ] as const) {
      const res = await order(token, id);
      expect(res.status).toBe(404);
      expectError(res.json(), 'ORDER_NOT_FOUND');
    }
  });

  it("opens a seller's part of an order: their books only, what they are paid, the buyer's first name", async () => {
    const bea = await makeUser({ firstName: 'Bea' });
    const second = await makeUser({ firstName: 'Sid' });
    const mine = [await makeBook(seller, { price: 12 }), await makeBook(seller, { price: 3.5 })];
    const theirs = await makeBook(second, { price: 40 });
    for (const b of [...mine, theirs]) expect((await addToCart(bea.token, b.id)).status).toBe(200);
    const placedRes = await checkout(bea.token);
    expect(placedRes.status).toBe(201);
    const placed = expectEnvelope(placedRes.json(), Order);
    const admin = await makeUser({ permissionType: 1 });
    expect(
      (
        await invoke(cancelPurchase, {
          method: 'POST',
          route: '/api/dashboard/cancelPurchase',
          token: admin.token,
          body: { bookId: mine[1]?.id, reason: 'Spine broken.' },
        })
      ).status,
    ).toBe(200);

    const res = await order(seller.token, placed.id);
    expect(res.status).toBe(200);
    const part = expectEnvelope(res.json(), OrderWithStatus);
    expect(part).toMatchObject({
      id: placed.id,
      viewer: 'seller',
      buyer: { id: bea.id, firstName: 'Bea' },
      // the seller is paid the price of their book still bought; the fee and Sid's book are not theirs
      subtotal: 12,
      fee: 0,
      total: 12,
    });
    expect(part.books.map((b) => [b.id, b.owner.id, b.cancelled])).toEqual([
      [mine[0]?.id, seller.id, false],
      [mine[1]?.id, seller.id, true],
    ]);
    expect(part.books[1]?.timeline.at(-1)).toMatchObject({ step: 'cancelled', reason: 'Spine broken.' });

    const sids = expectEnvelope((await order(second.token, placed.id)).json(), OrderWithStatus);
    expect(sids).toMatchObject({ viewer: 'seller', subtotal: 40, fee: 0, total: 40 });
    expect(sids.books.map((b) => b.id)).toEqual([theirs.id]);
    // the buyer still sees the whole order, with no first name of their own
    const whole = expectEnvelope((await order(bea.token, placed.id)).json(), OrderWithStatus);
    expect(whole).toMatchObject({ viewer: 'buyer', buyer: { id: bea.id } });
    expect(whole.buyer.firstName).toBeUndefined();
    expect(whole.books).toHaveLength(3);
  });

  it('refuses a cursor issued to another user', async () => {
    await buy(other, [1]);
    await buy(other, [1]);
    const first = await orders(other.token, { limit: '1' });
    const next = first.json<{ next: string | null }>().next;
    expect(next).toEqual(expect.any(String));
    const res = await orders(buyer.token, { cursor: String(next) });
    expect(res.status).toBe(400);
  });
});

describe("an order's conversations", () => {
  it('gives each side its thread with the other once someone wrote, null before, in one BatchGet', async () => {
    const [sam, ann, bea] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    for (const s of [sam, ann])
      expect((await addToCart(bea.token, (await makeBook(s, { price: 5 })).id)).status).toBe(200);
    const placed = await checkout(bea.token);
    expect(placed.status).toBe(201);
    const { id, books } = expectEnvelope(placed.json(), Order);
    const read = async (who: TestUser) => {
      const res = await order(who.token, id);
      expect(res.status).toBe(200);
      return expectEnvelope(res.json(), OrderWithStatus);
    };
    const byUser = (o: OrderWithStatus) =>
      Object.fromEntries(o.conversations.map((c) => [c.userId, c.conversationId]));
    expect(byUser(await read(bea))).toEqual({ [sam.id]: null, [ann.id]: null });
    expect(byUser(await read(sam))).toEqual({ [bea.id]: null });

    // the buyer writes to one seller about a book of the order
    const samsBook = books.find((b) => b.owner.id === sam.id)?.id ?? '';
    const asked = await askSeller(bea.token, { bookId: samsBook, text: 'When can we meet?' });
    expect(asked.status).toBe(201);
    const { conversationId } = expectEnvelope(asked.json(), SentMessage);
    expect(byUser(await read(bea))).toEqual({ [sam.id]: conversationId, [ann.id]: null });
    expect(byUser(await read(sam))).toEqual({ [bea.id]: conversationId });
    expect(byUser(await read(ann))).toEqual({ [bea.id]: null });
    // and the thread it names is the one the seller reads
    const thread = await getConversation(sam.token, conversationId);
    expect(thread.status).toBe(200);
  });
});
