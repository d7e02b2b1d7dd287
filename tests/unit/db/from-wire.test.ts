import { unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { fromWire } from '#lib/table/dynamo.ts';

type Wire = Parameters<typeof unmarshall>[0];

/** Items as DynamoDB's JSON protocol sends them: every attribute type, and numbers at the edges. */
const ITEMS: Wire[] = [
  { gsi1sk: { S: 'BOOK#2026-11-23T10:00:00.000Z#01J0' } },
  {
    pk: { S: 'BOOK#1' },
    empty: { S: '' },
    price: { N: '1299' },
    negative: { N: '-42' },
    fraction: { N: '12.5' },
    exponent: { N: '1e3' },
    safeMax: { N: String(Number.MAX_SAFE_INTEGER) },
    safeMin: { N: String(Number.MIN_SAFE_INTEGER) },
    hidden: { BOOL: false },
    shown: { BOOL: true },
    gone: { NULL: true },
    photos: { L: [{ M: { key: { S: 'photos/1.webp' }, width: { N: '640' } } }, { N: '7' }] },
    nested: { M: { deep: { M: { n: { N: '3' }, s: { S: 'x' } } } } },
    terms: { SS: ['calculus', 'physics'] },
    counts: { NS: ['1', '2'] },
  },
];

describe('fromWire: an item off the wire, as unmarshall answers it', () => {
  it.each(ITEMS.map((item, i) => [i, item] as const))('item %i', (_, item) => {
    expect(fromWire(item as Record<string, unknown>)).toStrictEqual(unmarshall(item));
  });

  it('answers a number past the safe integers as unmarshall does: a BigInt, not a rounded number', () => {
    const item = { big: { N: '9007199254740993' } };
    expect(fromWire(item)).toStrictEqual(unmarshall(item));
    expect(fromWire(item).big).toBe(9007199254740993n);
  });

  it('refuses what unmarshall refuses (an attribute with no value)', () => {
    const item = { broken: {} } as unknown as Wire;
    expect(() => unmarshall(item)).toThrow(/No value defined/);
    expect(() => fromWire(item as Record<string, unknown>)).toThrow(/No value defined/);
  });
});
