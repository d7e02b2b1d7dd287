import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { handler as purchasedHandler } from '#functions/user/get-purchased-books.ts';
import { handler as soldHandler } from '#functions/user/get-sold-books.ts';
import { handler as statsHandler } from '#functions/user/get-user-statistics.ts';
import { userStatsKey } from '#lib/db/keys.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { envelope } from '#lib/http/schemas.ts';
import { PurchasedBook, SoldBook, UserStatistics } from '#lib/orders/schemas.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { UpdateCommand } from '#lib/table/commands.ts';
import { measured, startMeasuring } from '#lib/table/metrics.ts';
import { makeBook, setStoredStatus } from '#tests/helpers/books.ts';
import { addToCart, checkout } from '#tests/helpers/cart.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

const purchased = (token: string, query?: Record<string, string>) =>
  invoke(purchasedHandler, { route: '/api/user/getPurchasedBooks', token, query });
const sold = (token: string, query?: Record<string, string>) =>
  invoke(soldHandler, { route: '/api/user/getSoldBooks', token, query });
const statistics = (token: string) => invoke(statsHandler, { route: '/api/user/getUserStatistics', token });

async function buy(buyer: TestUser, books: BookRecord[]) {
  for (const b of books) expect((await addToCart(buyer.token, b.id)).status).toBe(200);
  expect((await checkout(buyer.token)).status).toBe(201);
}

async function addCounters(userId: string, counters: Record<string, number>) {
  const names = Object.keys(counters);
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: userStatsKey(userId),
      UpdateExpression: `ADD ${names.map((n, i) => `${n} :v${i}`).join(', ')}`,
      ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, counters[n]])),
    }),
  );
}

const Paged = <T extends z.core.$ZodType>(item: T) =>
  z.strictObject({ ...envelope(z.array(item)).shape, next: z.string().nullable() });

async function allPages<T extends z.core.$ZodType>(
  call: (query: Record<string, string>) => ReturnType<typeof purchased>,
  item: T,
  limit: number,
): Promise<z.output<T>[][]> {
  const pages: z.output<T>[][] = [];
  let cursor: string | null = null;
  do {
    const res = await call(cursor ? { limit: String(limit), cursor } : { limit: String(limit) });
    expect(res.status).toBe(200);
    const parsed = Paged(item).parse(res.json());
    pages.push(parsed.data as z.output<T>[]);
    cursor = parsed.next;
  } while (cursor && pages.length < 20);
  return pages;
}

describe('getPurchasedBooks and getSoldBooks', () => {
  it('show bought books with their current status to the buyer and the seller, never unlisted ones', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const [a, b, c] = [await makeBook(seller), await makeBook(seller), await makeBook(seller)];
    const listed = await makeBook(seller);
    const unlisted = await makeBook(seller, { status: 5 });
    await buy(buyer, [a, b, c]);
    await setStoredStatus(b.id, 2);
    await setStoredStatus(c.id, 3);

    const mine = expectEnvelope((await purchased(buyer.token)).json(), z.array(PurchasedBook));
    expect(mine.map((x) => [x.id, x.status]).sort()).toEqual(
      [
        [a.id, 1],
        [b.id, 2],
        [c.id, 3],
      ].sort(),
    );
    expect(mine.every((x) => x.buyer?.id === buyer.id && x.orderId && x.boughtAt)).toBe(true);

    const theirs = expectEnvelope((await sold(seller.token)).json(), z.array(SoldBook));
    expect(theirs.map((x) => [x.id, x.status])).toEqual([
      [c.id, 3],
      [b.id, 2],
      [a.id, 1],
    ]);
    expect(theirs.map((x) => x.id)).not.toContain(listed.id);
    expect(theirs.map((x) => x.id)).not.toContain(unlisted.id);
    expect(theirs[0]?.buyer).toEqual({ id: buyer.id });

    // Nobody else sees any of it.
    const stranger = await makeUser();
    expect(expectEnvelope((await purchased(stranger.token)).json(), z.array(PurchasedBook))).toEqual([]);
    expect(expectEnvelope((await sold(stranger.token)).json(), z.array(SoldBook))).toEqual([]);
    expect(expectEnvelope((await sold(buyer.token)).json(), z.array(SoldBook))).toEqual([]);
  });

  it('page with a cursor through every purchase, newest first, each exactly once', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const books: BookRecord[] = [];
    for (let i = 0; i < 5; i++) {
      const book = await makeBook(seller);
      books.push(book);
      await buy(buyer, [book]);
    }
    const pages = await allPages((q) => purchased(buyer.token, q), PurchasedBook, 2);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((b) => b.id)).toEqual(books.map((b) => b.id).reverse());
  });

  it('page through sold books among many unsold ones', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const soldIds: string[] = [];
    for (let i = 0; i < 12; i++) {
      const book = await makeBook(seller);
      if (i % 4 === 0) {
        await buy(buyer, [book]);
        soldIds.push(book.id);
      }
    }
    const pages = await allPages((q) => sold(seller.token, q), SoldBook, 2);
    const seen = pages.flat().map((b) => b.id);
    expect(seen).toEqual([...soldIds].reverse());
  });

  it('refuse cursors of another list or another user, and bad limits, with 400', async () => {
    const [seller, one, two] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    for (let i = 0; i < 2; i++) await buy(one, [await makeBook(seller)]);
    const first = Paged(PurchasedBook).parse((await purchased(one.token, { limit: '1' })).json());
    expect(first.next).toBeTruthy();
    const cursor = first.next as string;
    const stolen = await purchased(two.token, { cursor });
    expect(stolen.status).toBe(400);
    expectError(stolen.json(), 'VALIDATION_FAILED');
    expect((await sold(one.token, { cursor })).status).toBe(400);
    for (const bad of ['garbage!', Buffer.from('{"pk":1}').toString('base64url'), 'e30']) {
      expect((await purchased(one.token, { cursor: bad })).status, bad).toBe(400);
    }
    for (const limit of ['0', '101', 'abc', '1.5']) {
      expect((await purchased(one.token, { limit })).status, limit).toBe(400);
    }
  });
});

describe('getUserStatistics', () => {
  it('reads the counters kept by checkout, money made only from what the dashboard paid out', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const books = [await makeBook(seller, { price: 12.34 }), await makeBook(seller), await makeBook(seller)];
    await buy(buyer, books.slice(0, 2));

    const before = expectEnvelope((await statistics(seller.token)).json(), UserStatistics);
    expect(before).toEqual({
      numberOfBooksBought: 0,
      numberOfBooksSold: 2,
      moneyMade: 0,
      activeListings: 1,
      openRequests: 0,
    });
    expect(expectEnvelope((await statistics(buyer.token)).json(), UserStatistics)).toMatchObject({
      numberOfBooksBought: 2,
      numberOfBooksSold: 0,
    });

    // setBookPaid (2 -> 3) adds the price in cents; requestBook adds open requests.
    await addCounters(seller.id, { moneyMade: 1234, openRequests: 2 });
    startMeasuring();
    const after = expectEnvelope((await statistics(seller.token)).json(), UserStatistics);
    expect(after).toMatchObject({ moneyMade: 12.34, openRequests: 2 });
    expect(measured().operations.map((o) => o.command)).toEqual(['GetItem', 'GetItem']);
  });

  it('shows zeros for a new user', async () => {
    const user = await makeUser();
    expect(expectEnvelope((await statistics(user.token)).json(), UserStatistics)).toEqual({
      numberOfBooksBought: 0,
      numberOfBooksSold: 0,
      moneyMade: 0,
      activeListings: 0,
      openRequests: 0,
    });
  });
});
