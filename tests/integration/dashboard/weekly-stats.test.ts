/**
 * Statistics over time (issue 32, item 6): the stream consumer keeps, per ISO week and per campus
 * and for every campus, the orders placed, their gross and fees and the new listings
 * (lib/dashboard/weekly-stats.ts), and getStatistics answers the last weeks of one scope. Records
 * are delivered twice, as the stream may: nothing may count twice.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handler as cancelPurchase } from '#functions/dashboard/cancel-purchase.ts';
import { handler as getStatistics } from '#functions/dashboard/get-statistics.ts';
import { Statistics } from '#lib/dashboard/schemas.ts';
import { weeklyStatsCountedKey } from '#lib/db/keys.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { addWeeks, countWeeklyFacts, isoWeekStart, readWeeks } from '#lib/db/weekly-stats.ts';
import { startMeasuring } from '#lib/table/metrics.ts';
import { daysBefore, makeBook, readBook } from '#tests/helpers/books.ts';
import { addToCart, checkout, readItem } from '#tests/helpers/cart.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectDocumented } from '#tests/helpers/openapi.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { consumeNew, StreamReader, sortedCommands } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

const ROUTE = '/api/dashboard/getStatistics';
const NORTH = 'north.edu';
const SOUTH = 'south.edu';

let admin: TestUser;
let reader: StreamReader;

beforeAll(async () => {
  admin = await makeUser({ permissionType: 1 });
});

beforeEach(async () => {
  reader = new StreamReader();
  await reader.skipToEnd();
});

/** Every book record written since the last call, through the whole consumer, delivered twice. */
const deliverTwice = () => consumeNew(reader, 'BOOK#', 2);

async function statistics(query: Record<string, string>) {
  const res = await invoke(getStatistics, { route: ROUTE, query, token: admin.token });
  expectDocumented(res, 'GET', ROUTE);
  expect(res.status).toBe(200);
  return expectEnvelope(res.json(), Statistics);
}

/** The stored counters of a scope's week, summed over its parts (absent: undefined). */
async function stored(scope: string, week: string) {
  const [found] = await readWeeks(scope, week, week, 1);
  if (!found) return undefined;
  const { orders, grossSales, feesEarned, newListings } = found;
  return { orders, grossSales, feesEarned, newListings };
}

async function buy(buyer: TestUser, books: BookRecord[]) {
  for (const b of books) expect((await addToCart(buyer.token, b.id)).status).toBe(200);
  expect((await checkout(buyer.token)).status).toBe(201);
  // re-read: checkout stores each book's order, purchase time and share of the fee
  return Promise.all(books.map(async (b) => (await readBook(b.id)) as BookRecord));
}

describe('weekly statistics', { timeout: 90_000 }, () => {
  it('counts orders, gross, fees and new listings per week and campus, once however often records come', async () => {
    const now = new Date();
    const sellerN = await makeUser({ campus: NORTH });
    const sellerS = await makeUser({ campus: SOUTH });
    const buyer1 = await makeUser({ campus: NORTH });
    const buyer2 = await makeUser({ campus: SOUTH });
    const lastWeekDay = daysBefore(now, 7);
    const threeWeeksDay = daysBefore(now, 21);
    const n1 = await makeBook(sellerN, { campus: NORTH, priceCents: 1000, date: lastWeekDay });
    const n2 = await makeBook(sellerN, { campus: NORTH, priceCents: 2500 });
    const s1 = await makeBook(sellerS, { campus: SOUTH, priceCents: 4000 });
    const s2 = await makeBook(sellerS, { campus: SOUTH, priceCents: 777, date: threeWeeksDay });
    // one order with books of both campuses, one of the south only
    const [b1, b2, b3] = await buy(buyer1, [n1, n2, s1]);
    const [b4] = await buy(buyer2, [s2]);
    if (!b1 || !b2 || !b3 || !b4) throw new Error('bought books not found');
    // the north's second book is cancelled: its money leaves the week it was bought in
    const cancelled = await invoke(cancelPurchase, {
      method: 'POST',
      route: '/api/dashboard/cancelPurchase',
      token: admin.token,
      body: { bookId: n2.id, reason: 'The seller lost it.' },
    });
    expect(cancelled.status).toBe(200);
    expect(await deliverTwice()).toBeGreaterThan(0);

    const fee = (b: BookRecord) => b.feeCents as number;
    expect(fee(b1) + fee(b2) + fee(b3)).toBe(375);
    const week = isoWeekStart(b1.boughtAt as string);
    expect(b4.boughtAt && isoWeekStart(b4.boughtAt)).toBe(week);
    const lastWeek = isoWeekStart(lastWeekDay);
    const threeWeeks = isoWeekStart(threeWeeksDay);
    // the listing dates of n2 and s1 are this week's
    expect(isoWeekStart(n2.date)).toBe(week);

    // stored state: one item per scope and week
    expect(await stored('all', week)).toEqual({
      orders: 2,
      grossSales: 1000 + 4000 + 777,
      feesEarned: fee(b1) + fee(b3) + fee(b4),
      newListings: 2,
    });
    expect(await stored(NORTH, week)).toEqual({
      orders: 1,
      grossSales: 1000,
      feesEarned: fee(b1),
      newListings: 1,
    });
    expect(await stored(SOUTH, week)).toEqual({
      orders: 2,
      grossSales: 4777,
      feesEarned: fee(b3) + fee(b4),
      newListings: 1,
    });
    expect(await stored(NORTH, lastWeek)).toEqual({
      orders: 0,
      grossSales: 0,
      feesEarned: 0,
      newListings: 1,
    });
    expect((await stored(SOUTH, threeWeeks))?.newListings).toBe(1);
    expect(await stored(NORTH, threeWeeks)).toBeUndefined();
    // each fact is marked counted (what keeps a redelivery from counting it again)
    expect(await readItem(weeklyStatsCountedKey(`sale#${b1.orderId}#${n1.id}`))).toMatchObject({
      type: 'weeklyStatsCounted',
    });
    expect(await readItem(weeklyStatsCountedKey(`cancel#${b2.orderId}#${n2.id}`))).toBeDefined();

    // the route: the north's last 4 weeks, oldest first, in dollars, the empty weeks as zeros
    const north = await statistics({ weeks: '4', campus: 'North.EDU' });
    expect(north.campus).toBe(NORTH);
    expect(north.weekly).toEqual([
      { week: addWeeks(week, -3), orders: 0, grossSales: 0, feesEarned: 0, newListings: 0 },
      { week: addWeeks(week, -2), orders: 0, grossSales: 0, feesEarned: 0, newListings: 0 },
      { week: lastWeek, orders: 0, grossSales: 0, feesEarned: 0, newListings: 1 },
      { week, orders: 1, grossSales: 10, feesEarned: fee(b1) / 100, newListings: 1 },
    ]);
    const all = await statistics({});
    expect(all.campus).toBe('all');
    expect(all.weekly).toHaveLength(12);
    expect(all.weekly.at(-1)).toEqual({
      week,
      orders: 2,
      grossSales: 57.77,
      feesEarned: (fee(b1) + fee(b3) + fee(b4)) / 100,
      newListings: 2,
    });
    expect(all.weekly.find((w) => w.week === threeWeeks)?.newListings).toBe(1);

    // a third delivery of the same records later still changes nothing
    expect(await consumeNew(reader, 'BOOK#', 1)).toBe(0);
    expect((await stored('all', week))?.orders).toBe(2);
  });

  it('counts a book without a campus in every campus only', async () => {
    const owner = await makeUser({ campus: NORTH });
    const day = daysBefore(new Date(), 70);
    await makeBook(owner, { campus: null, date: day });
    await deliverTwice();
    const week = isoWeekStart(day);
    expect(await stored('all', week)).toEqual({
      orders: 0,
      grossSales: 0,
      feesEarned: 0,
      newListings: 1,
    });
    expect(await stored(NORTH, week)).toBeUndefined();
    const all = await statistics({ weeks: '12' });
    expect(all.weekly.find((w) => w.week === week)?.newListings).toBe(1);
  });

  it('keeps every count when many records of one week are counted at the same time', async () => {
    const week = isoWeekStart(daysBefore(new Date(), 49));
    const facts = Array.from({ length: 16 }, (_, i) => ({
      id: `listing#CONCURRENT${i}`,
      moves: [{ scope: 'all', week, deltas: { newListings: 1 } }],
    }));
    const counted = await Promise.all(facts.map((f) => countWeeklyFacts([f])));
    expect(counted.flat().sort()).toEqual(facts.map((f) => f.id).sort());
    // and once more, all at once: nothing counts twice
    expect((await Promise.all(facts.map((f) => countWeeklyFacts([f])))).flat()).toEqual([]);
    expect((await stored('all', week))?.newListings).toBe(16);
  });

  it("marks a counted fact for at least its 40 days: the marker's ttl is rounded up", async () => {
    const week = isoWeekStart(daysBefore(new Date(), 56));
    const id = `listing#TTL${Date.now().toString(36)}`;
    const now = new Date('2026-11-28T00:00:00.500Z');
    expect(
      await countWeeklyFacts([{ id, moves: [{ scope: 'all', week, deltas: { newListings: 1 } }] }], now),
    ).toEqual([id]);
    expect((await readItem(weeklyStatsCountedKey(id)))?.ttl).toBe(
      Date.parse('2026-11-28T00:00:01Z') / 1000 + 40 * 86_400,
    );
  });

  it('answers with a fixed number of reads: the sign-in, the totals and one Query', async () => {
    startMeasuring();
    await statistics({ weeks: '52', campus: SOUTH });
    expect(sortedCommands()).toEqual(['BatchGetItem', 'GetItem', 'Query']);
  });

  it.each([
    [{ weeks: '0' }, 'weeks'],
    [{ weeks: '53' }, 'weeks'],
    [{ weeks: '1e1' }, 'weeks'],
    [{ campus: 'not a campus' }, 'campus'],
    [{ campus: 'north.edu', from: '2026-01-01' }, ''],
  ])('refuses %o with 400 in plain words', async (query, field) => {
    const res = await invoke(getStatistics, { route: ROUTE, query, token: admin.token });
    expectDocumented(res, 'GET', ROUTE);
    expect(res.status).toBe(400);
    expect(expectError(res.json(), 'VALIDATION_FAILED')).toBeTruthy();
    expect(res.body).not.toMatch(/Too small|Too big|expected/);
    if (field) expect(res.body).toContain(field);
  });

  it('is for admins only', async () => {
    const student = await makeUser({ campus: NORTH });
    const res = await invoke(getStatistics, { route: ROUTE, query: { weeks: '4' }, token: student.token });
    expect(res.status).toBe(403);
  });
});
