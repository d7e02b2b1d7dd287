import { describe, expect, it } from 'vitest';
import { stripKeys } from '#lib/table/page.ts';

describe('stripKeys', () => {
  it('answers a copy of the record without its key and index attributes, leaving the stored item as it was', () => {
    const stored = {
      pk: 'BOOK#1',
      sk: 'BOOK',
      gsi1pk: 'BOOKS#S0#3',
      gsi1sk: '2026-11-23T10:00:00.000Z#1',
      gsi4pk: 'LISTED#CAMPUS#x',
      gsi4sk: '000500#1',
      id: '1',
      name: 'Calculus',
      priceCents: 500,
      photos: [{ id: 'p' }],
    };
    const before = structuredClone(stored);
    const record = stripKeys<Record<string, unknown>>(stored);
    expect(record).toEqual({ id: '1', name: 'Calculus', priceCents: 500, photos: [{ id: 'p' }] });
    expect(Object.keys(record)).toEqual(['id', 'name', 'priceCents', 'photos']);
    expect(stored).toEqual(before);
    expect(record).not.toBe(stored);
  });
});
