/** The weeks of the weekly statistics and what a book record counts in them (lib/dashboard/weekly-stats.ts). */
import { describe, expect, it } from 'vitest';
import { weeklyFactsOf } from '#lib/dashboard/weekly-stats.ts';
import { addWeeks, isoWeekStart } from '#lib/db/weekly-stats.ts';

describe('isoWeekStart', () => {
  it('is the Monday (UTC) of the ISO week', () => {
    expect(isoWeekStart('2026-11-27T12:00:00.000Z')).toBe('2026-11-23'); // a Friday
    expect(isoWeekStart('2026-11-29T23:59:59.999Z')).toBe('2026-11-23'); // Sunday night
    expect(isoWeekStart('2026-11-30T00:00:00.000Z')).toBe('2026-11-30'); // Monday midnight
    expect(isoWeekStart('2027-01-01T08:00:00.000Z')).toBe('2026-12-28'); // across the year
    expect(isoWeekStart('2024-03-01T00:00:00+05:00')).toBe('2024-02-26'); // an offset counts in UTC
  });

  it('steps whole weeks', () => {
    expect(addWeeks('2026-11-23', -1)).toBe('2026-11-16');
    expect(addWeeks('2026-12-28', 1)).toBe('2027-01-04');
  });
});

describe('weeklyFactsOf', () => {
  const keys = { pk: 'BOOK#b1', sk: 'BOOK' };
  const listed = {
    id: 'b1',
    status: 0,
    date: '2026-11-24T10:00:00.000Z',
    priceCents: 1000,
    campus: 'uni.edu',
  };
  const bought = { ...listed, status: 1, orderId: 'o1', boughtAt: '2026-11-30T09:00:00.000Z', feeCents: 50 };

  it('counts a new book as a listing of its week, in its campus and in all', () => {
    const facts = weeklyFactsOf({ eventName: 'INSERT', keys, oldImage: undefined, newImage: listed });
    expect(facts).toEqual([
      {
        id: 'listing#b1',
        moves: [
          { scope: 'all', week: '2026-11-23', deltas: { newListings: 1 } },
          { scope: 'uni.edu', week: '2026-11-23', deltas: { newListings: 1 } },
        ],
      },
    ]);
  });

  it('counts a purchase in the week it was bought, the order once per scope; a cancel takes the money back', () => {
    const sale = weeklyFactsOf({ eventName: 'MODIFY', keys, oldImage: listed, newImage: bought });
    expect(sale.map((f) => f.id)).toEqual(['sale#o1#b1', 'order#o1', 'order#o1#uni.edu']);
    expect(sale[0]?.moves[0]).toEqual({
      scope: 'all',
      week: '2026-11-30',
      deltas: { grossSales: 1000, feesEarned: 50 },
    });
    const relisted = { ...listed, date: '2026-12-08T00:00:00.000Z' };
    const cancel = weeklyFactsOf({ eventName: 'MODIFY', keys, oldImage: bought, newImage: relisted });
    expect(cancel).toEqual([
      {
        id: 'cancel#o1#b1',
        moves: ['all', 'uni.edu'].map((scope) => ({
          scope,
          week: '2026-11-30',
          deltas: { grossSales: -1000, feesEarned: -50 },
        })),
      },
    ]);
  });

  it('counts nothing for other changes: a price edit, a status move, a removal, another item', () => {
    const edited = { ...listed, priceCents: 900 };
    expect(weeklyFactsOf({ eventName: 'MODIFY', keys, oldImage: listed, newImage: edited })).toEqual([]);
    expect(
      weeklyFactsOf({ eventName: 'MODIFY', keys, oldImage: bought, newImage: { ...bought, status: 2 } }),
    ).toEqual([]);
    expect(weeklyFactsOf({ eventName: 'REMOVE', keys, oldImage: bought, newImage: undefined })).toEqual([]);
    expect(
      weeklyFactsOf({
        eventName: 'INSERT',
        keys: { pk: 'USER#u', sk: 'PROFILE' },
        oldImage: undefined,
        newImage: listed,
      }),
    ).toEqual([]);
  });
});
