/**
 * getOrder's per-book timeline (docs/handover.md "The order's timeline"): every step driven through
 * the real dashboard routes, its time checked against the stored records and the clock around it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as cancelPurchase } from '#functions/dashboard/cancel-purchase.ts';
import { handler as confirmBook } from '#functions/dashboard/confirm-book.ts';
import { handler as setBookPaid } from '#functions/dashboard/set-book-paid.ts';
import { handler as getOrder } from '#functions/user/get-order.ts';
import { bookKey, orderKey } from '#lib/db/keys.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { getOrder as readOrder } from '#lib/orders/history.ts';
import { Order, type OrderStep, OrderWithStatus } from '#lib/orders/schemas.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { UpdateCommand } from '#lib/table/commands.ts';
import { makeBook, readBook } from '#tests/helpers/books.ts';
import { addToCart, checkout, readItem } from '#tests/helpers/cart.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectEnvelope } from '#tests/helpers/schema.ts';
import { commandsOf } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

let admin: TestUser;
let seller: TestUser;
let buyer: TestUser;
let other: TestUser;

beforeAll(async () => {
  [admin, seller, buyer, other] = await Promise.all([
    makeUser({ permissionType: 1 }),
    makeUser(),
    makeUser(),
    makeUser(),
  ]);
});

type Action = 'confirmBook' | 'setBookPaid' | 'cancelPurchase';
const handlers = { confirmBook, setBookPaid, cancelPurchase };

/** Runs one admin move and answers the clock's bounds around it. */
async function act(action: Action, bookId: string, reason?: string): Promise<[string, string]> {
  const before = new Date().toISOString();
  const res = await invoke(handlers[action], {
    method: 'POST',
    route: `/api/dashboard/${action}`,
    token: admin.token,
    body: reason === undefined ? { bookId } : { bookId, reason },
  });
  expect(res.status).toBe(200);
  return [before, new Date().toISOString()];
}

async function buy(who: TestUser, bookIds: string[]) {
  for (const id of bookIds) expect((await addToCart(who.token, id)).status).toBe(200);
  const res = await checkout(who.token);
  expect(res.status).toBe(201);
  return expectEnvelope(res.json(), Order);
}

async function timelines(who: TestUser, orderId: string): Promise<Record<string, OrderStep[]>> {
  const res = await invoke(getOrder, {
    route: '/api/user/getOrder/{orderId}',
    pathParameters: { orderId },
    token: who.token,
  });
  expect(res.status).toBe(200);
  const order = expectEnvelope(res.json(), OrderWithStatus);
  return Object.fromEntries(order.books.map((b) => [b.id, b.timeline]));
}

const within = (at: string | null | undefined, [from, to]: [string, string]) => {
  expect(at).toEqual(expect.any(String));
  expect(String(at) >= from && String(at) <= to).toBe(true);
};
const stored = async (bookId: string) => (await readBook(bookId)) as BookRecord;

describe("an order's dated steps", () => {
  it('dates bought, verified, delivered and cancelled with its reason, and keeps them after a relisting', async () => {
    const [paid, refunded, dropped] = await Promise.all([
      makeBook(seller, { price: 20 }),
      makeBook(seller, { price: 15 }),
      makeBook(seller, { price: 5 }),
    ]);
    const order = await buy(buyer, [paid.id, refunded.id, dropped.id]);

    const verified = await act('confirmBook', paid.id);
    const delivered = await act('setBookPaid', paid.id);
    const verifiedThenCancelled = await act('confirmBook', refunded.id);
    const cancelledAfterCheck = await act('cancelPurchase', refunded.id, 'Pages 40-60 are missing.');
    const cancelled = await act('cancelPurchase', dropped.id, 'The seller did not come.');

    // what the moves stored: the book keeps its own steps; a relisted book forgets them
    const paidNow = await stored(paid.id);
    within(paidNow.verifiedAt, verified);
    within(paidNow.deliveredAt, delivered);
    for (const id of [refunded.id, dropped.id]) {
      const relisted = await stored(id);
      expect(relisted).toMatchObject({ status: 0 });
      for (const gone of ['verifiedAt', 'deliveredAt', 'boughtAt', 'orderId', 'buyerId'])
        expect(relisted).not.toHaveProperty(gone);
    }
    const orderItem = (await readItem(orderKey(order.id))) ?? {};
    const entries = [...(orderItem.cancellations as Set<string>)].map((e) => JSON.parse(e));
    expect(entries.sort((a, b) => a.at.localeCompare(b.at))).toEqual([
      {
        bookId: refunded.id,
        at: expect.any(String),
        verifiedAt: expect.any(String),
        reason: 'Pages 40-60 are missing.',
      },
      { bookId: dropped.id, at: expect.any(String), verifiedAt: null, reason: 'The seller did not come.' },
    ]);
    within(entries[0].verifiedAt, verifiedThenCancelled);
    within(entries[0].at, cancelledAfterCheck);
    within(entries[1].at, cancelled);

    const expected = {
      [paid.id]: [
        { step: 'bought', at: order.createdAt, reason: null },
        { step: 'verified', at: paidNow.verifiedAt, reason: null },
        { step: 'delivered', at: paidNow.deliveredAt, reason: null },
      ],
      [refunded.id]: [
        { step: 'bought', at: order.createdAt, reason: null },
        { step: 'verified', at: entries[0].verifiedAt, reason: null },
        { step: 'cancelled', at: entries[0].at, reason: 'Pages 40-60 are missing.' },
      ],
      [dropped.id]: [
        { step: 'bought', at: order.createdAt, reason: null },
        { step: 'cancelled', at: entries[1].at, reason: 'The seller did not come.' },
      ],
    };
    expect(await timelines(buyer, order.id)).toEqual(expected);

    // Someone else buys the relisted books and one is checked: a new order with its own steps,
    // and the first order's timeline does not change.
    const again = await buy(other, [refunded.id, dropped.id]);
    const checkedAgain = await act('confirmBook', dropped.id);
    within((await stored(dropped.id)).verifiedAt, checkedAgain);
    expect(await timelines(buyer, order.id)).toEqual(expected);
    expect(await timelines(other, again.id)).toEqual({
      [refunded.id]: [{ step: 'bought', at: again.createdAt, reason: null }],
      [dropped.id]: [
        { step: 'bought', at: again.createdAt, reason: null },
        { step: 'verified', at: (await stored(dropped.id)).verifiedAt, reason: null },
      ],
    });
  });

  it('reads the steps from what getOrder already reads: one GetItem, the books’ BatchGet, the hand-overs Query (and the conversations’ BatchGet)', async () => {
    const book = await makeBook(seller, { price: 3 });
    const order = await buy(buyer, [book.id]);
    await act('confirmBook', book.id);
    const calls = await commandsOf(() => readOrder(buyer.id, order.id));
    expect(calls.sort()).toEqual(['BatchGetItem ', 'BatchGetItem ', 'GetItem ORDER', 'Query ']);
  });

  it('shows a step taken before times were recorded with a null time, never an invented one', async () => {
    const [checked, cancelledLongAgo] = await Promise.all([
      makeBook(seller, { price: 4 }),
      makeBook(seller, { price: 6 }),
    ]);
    const order = await buy(buyer, [checked.id, cancelledLongAgo.id]);
    await act('confirmBook', checked.id);
    await act('cancelPurchase', cancelledLongAgo.id, 'Old reason.');
    // as an older version of the service left them: no verifiedAt, no dated cancellation
    for (const [key, name] of [
      [bookKey(checked.id), 'verifiedAt'],
      [orderKey(order.id), 'cancellations'],
    ] as const)
      await db.send(new UpdateCommand({ TableName: TABLE, Key: key, UpdateExpression: `REMOVE ${name}` }));
    expect(await timelines(buyer, order.id)).toEqual({
      [checked.id]: [
        { step: 'bought', at: order.createdAt, reason: null },
        { step: 'verified', at: null, reason: null },
      ],
      [cancelledLongAgo.id]: [
        { step: 'bought', at: order.createdAt, reason: null },
        { step: 'cancelled', at: null, reason: null },
      ],
    });
  });
});
