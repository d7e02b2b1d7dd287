import { describe, expect, it } from 'vitest';
import { bookKey } from '#lib/db/keys.ts';
import { stripKeys } from '#lib/table/page.ts';

describe('stripKeys', () => {
  it('answers a copy of the record without its key and index attributes, leaving the stored item as it was', () => {
    const record = { id: '1', name: 'Calculus', priceCents: 500, photos: [{ id: 'p' }] };
    const stored = {
      ...bookKey(record.id),
      gsi1pk: 'BOOKS#S0#3',
      gsi1sk: '2026-11-23T10:00:00.000Z#1',
      gsi4pk: 'LISTED#CAMPUS#x',
      gsi4sk: '000500#1',
      ...record,
    };
    const before = structuredClone(stored);
    const stripped = stripKeys<Record<string, unknown>>(stored);
    expect(stripped).toEqual(record);
    expect(Object.keys(stripped)).toEqual(['id', 'name', 'priceCents', 'photos']);
    expect(stored).toEqual(before);
    expect(stripped).not.toBe(stored);
  });
});
