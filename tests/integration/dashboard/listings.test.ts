import { beforeAll, describe, expect, it } from 'vitest';
import { handler as cancelPurchase } from '#functions/dashboard/cancel-purchase.ts';
import { handler as confirmBook } from '#functions/dashboard/confirm-book.ts';
import { handler as getBooksWithStatus } from '#functions/dashboard/get-books-with-status.ts';
import { handler as getOrders } from '#functions/dashboard/get-orders.ts';
import { handler as getStatistics } from '#functions/dashboard/get-statistics.ts';
import { AdminOrderList, HandOverBookList, Statistics } from '#lib/dashboard/schemas.ts';
import { GLOBAL_STATS_SHARDS, globalStatsKeys, globalStatsShardKey } from '#lib/db/keys.ts';
import { suspendUser } from '#lib/moderation/suspension.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { DeleteCommand, PutCommand } from '#lib/table/commands.ts';
import { measured, startMeasuring } from '#lib/table/metrics.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { seedOrder } from '#tests/helpers/orders.ts';
import { expectEnvelope } from '#tests/helpers/schema.ts';
import { sortedCommands } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

let admin: TestUser;
let sellerA: TestUser;
let sellerB: TestUser;
let buyer: TestUser;

beforeAll(async () => {
  admin = await makeUser({ permissionType: 1 });
  sellerA = await makeUser({
    firstName: 'Ann',
    lastName: 'Seller',
    campusMailbox: 'Box 11',
    paymentUsername: '@ann',
  });
  sellerB = await makeUser({
    firstName: 'Ben',
    lastName: 'Seller',
    campusMailbox: 'Box 12',
    paymentUsername: '@ben',
  });
  buyer = await makeUser({
    firstName: 'Cy',
    lastName: 'Buyer',
    campusMailbox: 'Box 13',
    paymentUsername: '@cy',
  });
});

const contact = (u: TestUser) => ({
  id: u.id,
  firstName: u.record.firstName,
  lastName: u.record.lastName,
  emailAddress: u.record.emailAddress,
  campusMailbox: u.record.campusMailbox,
  paymentUsername: u.record.paymentUsername,
  suspended: false,
});

describe('getStatistics', () => {
  it('sums the counters over their shards, money in dollars, every status present', async () => {
    // Fresh counters: every shard emptied, then the first and the last shard hold parts.
    for (const key of globalStatsKeys()) await db.send(new DeleteCommand({ TableName: TABLE, Key: key }));
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: {
          ...globalStatsKeys()[0],
          totalUsers: 5,
          totalBooks: 6,
          books_s0: 3,
          books_s1: 2,
          books_s3: 1,
          totalOrders: 2,
          grossSales: 12000,
          feesEarned: 600,
        },
      }),
    );
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: {
          ...globalStatsShardKey(GLOBAL_STATS_SHARDS - 1),
          totalUsers: 2,
          totalBooks: 3,
          books_s0: 1,
          books_s5: 2,
          totalOrders: 1,
          grossSales: 345,
          feesEarned: 17,
        },
      }),
    );
    startMeasuring();
    const res = await invoke(getStatistics, { route: '/api/dashboard/getStatistics', token: admin.token });
    const { weekly, campus, ...totals } = expectEnvelope(res.json(), Statistics);
    // the weekly figures (tests/integration/dashboard/weekly-stats.test.ts): 12 weeks of every campus
    expect(campus).toBe('all');
    expect(weekly).toHaveLength(12);
    expect(totals).toEqual({
      totalUsers: 7,
      totalBooks: 9,
      booksByStatus: { '0': 4, '1': 2, '2': 0, '3': 1, '5': 2 },
      totalOrders: 3,
      grossSales: 123.45,
      feesEarned: 6.17,
    });
    // the caller's user record, then (at once) every counter item in one call and the weeks in one Query
    expect(sortedCommands()).toEqual(['BatchGetItem', 'GetItem', 'Query']);
  });

  it('moves with the hand-over, as it happens', async () => {
    const read = async () =>
      expectEnvelope(
        (await invoke(getStatistics, { route: '/api/dashboard/getStatistics', token: admin.token })).json(),
        Statistics,
      );
    const order = await seedOrder(buyer.id, [{ sellerId: sellerA.id }]);
    const before = await read();
    await invoke(confirmBook, {
      method: 'POST',
      route: '/api/dashboard/confirmBook',
      token: admin.token,
      body: { bookId: order.books[0]?.id },
    });
    const after = await read();
    expect(after.booksByStatus['1']).toBe(before.booksByStatus['1'] - 1);
    expect(after.booksByStatus['2']).toBe(before.booksByStatus['2'] + 1);
  });
});

describe('getBooksWithStatus', () => {
  const list = (status: string, query: Record<string, string> = {}) =>
    invoke(getBooksWithStatus, {
      route: '/api/dashboard/getBooksWithStatus/{status}',
      pathParameters: { status },
      query,
      token: admin.token,
    });

  it("gives each book with its seller's and buyer's contact details, a page at a time", async () => {
    const o1 = await seedOrder(buyer.id, [{ sellerId: sellerA.id, status: 3 }]);
    const o2 = await seedOrder(buyer.id, [{ sellerId: sellerB.id, status: 3 }]);
    const first = await list('3', { limit: '1' });
    const page1 = expectEnvelope(first.json(), HandOverBookList);
    const next = first.json<{ next: string | null }>().next;
    expect(next).toEqual(expect.any(String));
    const second = await list('3', { limit: '1', cursor: String(next) });
    const page2 = expectEnvelope(second.json(), HandOverBookList);
    const all = [...page1, ...page2];
    expect(all.map((x) => x.book.id)).toEqual([o1.books[0]?.id, o2.books[0]?.id]);
    expect(all[0]).toMatchObject({
      book: { status: 3, buyer: { id: buyer.id } },
      owner: contact(sellerA),
      buyer: contact(buyer),
    });
    expect(all[1]).toMatchObject({ owner: contact(sellerB), buyer: contact(buyer) });
    // each item's age in the queue starts at checkout
    expect(all.map((x) => x.boughtAt)).toEqual([o1.createdAt, o2.createdAt]);
    for (const secret of ['passwordHash', 'tokenVersion', 'not-a-real-hash'])
      expect(first.body).not.toContain(secret);
  });

  it('says when a seller is suspended, so the admins know nobody will bring the book', async () => {
    const seller = await makeUser({ firstName: 'Sus' });
    const order = await seedOrder(buyer.id, [{ sellerId: seller.id, status: 1 }]);
    await suspendUser(
      { userId: admin.id, permissionType: 1 },
      { userId: seller.id, reason: 'Scam messages.' },
    );
    const items = expectEnvelope((await list('1', { limit: '100' })).json(), HandOverBookList);
    const item = items.find((x) => x.book.id === order.books[0]?.id);
    expect(item?.owner).toEqual({ ...contact(seller), suspended: true });
    expect(item?.buyer).toEqual(contact(buyer));
  });

  it("costs the auth read, one index query, one batch read of users and one of the page's hand-overs per page", async () => {
    await seedOrder(buyer.id, [
      { sellerId: sellerA.id, status: 2 },
      { sellerId: sellerB.id, status: 2 },
    ]);
    startMeasuring();
    const res = await list('2', { limit: '50' });
    expect(expectEnvelope(res.json(), HandOverBookList).length).toBeGreaterThanOrEqual(2);
    expect(measured().operations.map((o) => o.command)).toEqual([
      'GetItem',
      'Query',
      'BatchGetItem',
      'BatchGetItem',
    ]);
  });

  it('refuses a status that does not exist with 400', async () => {
    for (const status of ['4', '6', '-1', 'x', '1.5']) expect((await list(status)).status, status).toBe(400);
  });
});

describe('getOrders', () => {
  const orders = async (query: Record<string, string> = {}) => {
    const res = await invoke(getOrders, { route: '/api/dashboard/getOrders', query, token: admin.token });
    expect(res.status).toBe(200);
    return expectEnvelope(res.json(), AdminOrderList);
  };

  it('lists placed orders newest first with buyer and seller contacts and each book’s progress', async () => {
    const order = await seedOrder(buyer.id, [
      { sellerId: sellerA.id, price: 10 },
      { sellerId: sellerB.id, price: 5.5 },
    ]);
    const [cancelled, kept] = order.books;
    const res = await invoke(cancelPurchase, {
      method: 'POST',
      route: '/api/dashboard/cancelPurchase',
      token: admin.token,
      body: { bookId: cancelled?.id, reason: 'Lost in the mail room.' },
    });
    expect(res.status).toBe(200);
    const newest = (await orders({ limit: '1' }))[0];
    expect(newest).toEqual({
      id: order.id,
      status: 1,
      createdAt: order.createdAt,
      // the cancelled book and its fee share are in no total: 5.50 + 0.28 of the 0.78 fee
      subtotal: 5.5,
      fee: 0.28,
      total: 5.78,
      buyer: contact(buyer),
      books: [
        {
          id: cancelled?.id,
          name: cancelled?.name,
          price: 10,
          status: 0,
          cancelled: true,
          owner: contact(sellerA),
        },
        { id: kept?.id, name: kept?.name, price: 5.5, status: 1, cancelled: false, owner: contact(sellerB) },
      ],
    });
  });

  it('filters by order status and refuses a malformed one', async () => {
    expect(await orders({ status: '7' })).toEqual([]);
    const bad = await invoke(getOrders, {
      route: '/api/dashboard/getOrders',
      query: { status: 'placed' },
      token: admin.token,
    });
    expect(bad.status).toBe(400);
  });
});
