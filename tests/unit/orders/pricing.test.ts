import { describe, expect, it } from 'vitest';
import { feeCents, priceOrder, toCents, toDollars } from '#lib/orders/pricing.ts';

describe('order pricing', () => {
  it('converts prices whose float form is inexact to whole cents', () => {
    expect(toCents(0.1)).toBe(10);
    expect(toCents(0.29)).toBe(29);
    expect(toCents(1.005 - 0.005)).toBe(100);
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(10000)).toBe(1_000_000);
    expect(toCents(0)).toBe(0);
  });

  it('refuses prices with more than two decimals or below zero', () => {
    expect(() => toCents(1.234)).toThrow(RangeError);
    expect(() => toCents(-1)).toThrow(RangeError);
    expect(() => toCents(Number.NaN)).toThrow(RangeError);
  });

  it('rounds the 5 % fee half up to the cent', () => {
    expect(feeCents(10)).toBe(1); // 0.5 cent -> 1
    expect(feeCents(9)).toBe(0); // 0.45 cent -> 0
    expect(feeCents(30)).toBe(2); // 1.5 cents -> 2
    expect(feeCents(1999)).toBe(100); // 99.95 cents -> 100
    expect(feeCents(1989)).toBe(99); // 99.45 cents -> 99
    expect(feeCents(0)).toBe(0);
  });

  it('adds awkward prices exactly, where float addition drifts', () => {
    const prices = [0.1, 0.2, 0.7, 19.99, 33.33];
    expect(prices.reduce((a, b) => a + b, 0)).not.toBe(54.32); // the float trap
    const totals = priceOrder(prices);
    expect(totals).toEqual({ subtotalCents: 5432, feeCents: 272, totalCents: 5704 });
    expect(toDollars(totals.subtotalCents)).toBe(54.32);
    expect(toDollars(totals.feeCents)).toBe(2.72);
    expect(toDollars(totals.totalCents)).toBe(57.04);
  });

  it('charges no fee on free books', () => {
    expect(priceOrder([0, 0])).toEqual({ subtotalCents: 0, feeCents: 0, totalCents: 0 });
  });

  it('shows cents as dollars with at most two decimals', () => {
    expect(toDollars(5)).toBe(0.05);
    expect(toDollars(12345)).toBe(123.45);
    expect(String(toDollars(110))).toBe('1.1');
  });
});
