import { describe, expect, it } from 'vitest';
import * as pricing from '#lib/values/money.ts';

describe('order pricing', () => {
  it('converts prices whose float form is inexact to whole cents', () => {
    expect(pricing.toCents(0.1)).toBe(10);
    expect(pricing.toCents(0.29)).toBe(29);
    expect(pricing.toCents(19.99)).toBe(1999);
    expect(pricing.toCents(10000)).toBe(1_000_000);
    expect(pricing.toCents(0)).toBe(0);
  });

  it('refuses prices with more than two decimals or below zero', () => {
    expect(() => pricing.toCents(1.234)).toThrow(RangeError);
    expect(() => pricing.toCents(-1)).toThrow(RangeError);
    expect(() => pricing.toCents(Number.NaN)).toThrow(RangeError);
  });

  it('rounds the 5 % fee half up to the cent', () => {
    expect(pricing.feeCents(10)).toBe(1); // 0.5 cent -> 1
    expect(pricing.feeCents(9)).toBe(0); // 0.45 cent -> 0
    expect(pricing.feeCents(30)).toBe(2); // 1.5 cents -> 2
    expect(pricing.feeCents(1999)).toBe(100); // 99.95 cents -> 100
    expect(pricing.feeCents(1989)).toBe(99); // 99.45 cents -> 99
    expect(pricing.feeCents(0)).toBe(0);
  });

  it('adds awkward prices exactly, where float addition drifts', () => {
    const prices = [0.1, 0.2, 0.7, 19.99, 33.33];
    expect(prices.reduce((a, b) => a + b, 0)).not.toBe(54.32); // the float trap
    const totals = pricing.priceOrder(prices.map(pricing.toCents));
    expect(totals).toEqual({ subtotalCents: 5432, feeCents: 272, totalCents: 5704 });
    expect(pricing.toDollars(totals.subtotalCents)).toBe(54.32);
    expect(pricing.toDollars(totals.feeCents)).toBe(2.72);
    expect(pricing.toDollars(totals.totalCents)).toBe(57.04);
  });

  it('charges no fee on free books', () => {
    expect(pricing.priceOrder([0, 0])).toEqual({ subtotalCents: 0, feeCents: 0, totalCents: 0 });
  });

  it('shows cents as dollars with at most two decimals', () => {
    expect(pricing.toDollars(5)).toBe(0.05);
    expect(pricing.toDollars(12345)).toBe(123.45);
    expect(String(pricing.toDollars(110))).toBe('1.1');
  });
});

describe('money in cents', () => {
  it('reads amounts as written, from their digits', () => {
    expect(pricing.parseMoney('19.99')).toBe(1999);
    expect(pricing.parseMoney('0.1')).toBe(10);
    expect(pricing.parseMoney('5')).toBe(500);
    expect(pricing.parseMoney('99999.99')).toBe(9_999_999);
    for (const bad of ['1e-9', '19.999', '-1', '1.', '.5', '123456', ' 1', '0x10', '']) {
      expect(() => pricing.parseMoney(bad), bad).toThrow(RangeError);
    }
  });

  it('refuses prices it would otherwise round: 1e-9 and 19.999999999', () => {
    expect(pricing.isMoney(0.000000001)).toBe(false);
    expect(() => pricing.toCents(0.000000001)).toThrow(RangeError);
    expect(pricing.isMoney(19.999999999)).toBe(false);
    expect(() => pricing.toCents(19.999999999)).toThrow(RangeError);
    expect(pricing.isMoney(19.99)).toBe(true);
  });
});

describe('fee allocation (largest remainder)', () => {
  it('gives two $0.10 books one cent of fee between them, so cancelling both takes back one cent', () => {
    const fee = pricing.feeCents(20);
    expect(fee).toBe(1);
    expect(pricing.allocateFee([10, 10], fee)).toEqual([1, 0]);
  });

  it('shares always add up to the fee, in proportion to the prices', () => {
    const cases: number[][] = [
      [1999, 3333, 10, 70, 20],
      [1, 1, 1],
      [100_000, 1],
      [4550, 4550, 4550],
      [0, 0, 500],
    ];
    for (const prices of cases) {
      const { subtotalCents, feeCents: fee } = pricing.priceOrder(prices);
      const shares = pricing.allocateFee(prices, fee);
      expect(
        shares.reduce((a, b) => a + b, 0),
        String(prices),
      ).toBe(fee);
      prices.forEach((p, i) => {
        const exact = (fee * p) / subtotalCents;
        expect(Math.abs((shares[i] ?? 0) - exact), `${prices}[${i}]`).toBeLessThan(1);
      });
    }
  });

  it('gives the leftover cents to the largest remainders, the earlier book on a tie', () => {
    // fee 10 over 3 equal books: 3.33 each -> 4, 3, 3
    expect(pricing.allocateFee([100, 100, 100], 10)).toEqual([4, 3, 3]);
    // fee 5 over 1:2 -> exact 1.67 and 3.33 -> 2 and 3
    expect(pricing.allocateFee([100, 200], 5)).toEqual([2, 3]);
    expect(pricing.allocateFee([0, 0], 0)).toEqual([0, 0]);
  });
});
