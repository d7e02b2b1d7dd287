import { describe, expect, it } from 'vitest';
import type { OrderRecord } from '#lib/db/records.ts';
import { chargedTotals } from '#lib/orders/totals.ts';
import { allocateFee, priceOrder } from '#lib/values/money.ts';

const line = (bookId: string, priceCents: number, feeCents?: number) => ({
  bookId,
  name: bookId,
  edition: 1,
  course: 'CSC 171',
  ISBN: null,
  condition: 'good',
  priceCents,
  ...(feeCents === undefined ? {} : { feeCents }),
  sellerId: 's',
  sellerFirstName: 'Sam',
});

function order(prices: number[], cancelled: string[], storeShares = true): OrderRecord {
  const totals = priceOrder(prices);
  const shares = allocateFee(prices, totals.feeCents);
  return {
    type: 'order',
    id: 'o1',
    buyerId: 'b',
    books: prices.map((p, i) => line(`b${i}`, p, storeShares ? shares[i] : undefined)),
    bookIds: prices.map((_, i) => `b${i}`),
    sellerIds: ['s'],
    ...totals,
    status: 1,
    createdAt: '2026-11-01T00:00:00.000Z',
    ...(cancelled.length ? { cancelledBookIds: new Set(cancelled) } : {}),
  };
}

describe('what an order charges', () => {
  it('is what checkout charged while nothing is cancelled', () => {
    const o = order([1234, 999, 4500], []);
    expect(chargedTotals(o)).toEqual({ subtotalCents: 6733, feeCents: o.feeCents, totalCents: o.totalCents });
  });

  it.each([true, false])('leaves out a cancelled book and its fee share (shares stored: %s)', (stored) => {
    const prices = [1234, 999, 4500];
    const o = order(prices, ['b1'], stored);
    const shares = allocateFee(prices, o.feeCents);
    expect(chargedTotals(o)).toEqual({
      subtotalCents: 1234 + 4500,
      feeCents: (shares[0] ?? 0) + (shares[2] ?? 0),
      totalCents: 1234 + 4500 + (shares[0] ?? 0) + (shares[2] ?? 0),
    });
  });

  it('is zero once every book is cancelled', () => {
    expect(chargedTotals(order([1000, 2000], ['b0', 'b1']))).toEqual({
      subtotalCents: 0,
      feeCents: 0,
      totalCents: 0,
    });
  });
});
