import { describe, expect, it } from 'vitest';
import { entryChanges, listFieldsOf, sameValuesCondition } from '#lib/db/list-fields.ts';

const stored = {
  pk: 'BOOK#1',
  sk: 'BOOK',
  gsi1pk: 'BOOKS#S0#3',
  gsi1sk: 'x',
  type: 'book',
  id: '1',
  name: 'Optics',
  status: 0,
  priceCents: 1250,
  condition: 'like-new',
  comments: '',
  photoSlots: { p: {} },
  photoVersion: 4,
  reportCount: 1,
  feeCents: 3,
};

describe('listFieldsOf', () => {
  it('keeps what a list shows, without keys or working state', () => {
    // the keys and the working state (photo slots and version, reports, fee) are left out
    const { pk, sk, gsi1pk, gsi1sk, photoSlots, photoVersion, reportCount, feeCents, ...shown } = stored;
    expect(Object.keys(shown).sort()).toEqual([
      'comments',
      'condition',
      'id',
      'name',
      'priceCents',
      'status',
      'type',
    ]);
    expect(listFieldsOf(stored)).toEqual(shown);
  });

  it('is null for a book that is not listed, a hidden one, or anything else', () => {
    expect(listFieldsOf({ ...stored, status: 5 })).toBeNull();
    expect(listFieldsOf({ ...stored, hidden: true })).toBeNull();
    expect(listFieldsOf({ ...stored, type: 'request' })).toBeNull();
    expect(listFieldsOf(undefined)).toBeNull();
  });
});

describe('entryChanges', () => {
  const e = (sk: string, priceCents: number) => ({ pk: 'SEARCH#T#o', sk, priceCents });
  it('puts new and changed entries, deletes the ones that no longer hold, leaves equal ones alone', () => {
    const before = new Map([
      ['a', e('a', 1)],
      ['b', e('b', 1)],
      ['c', e('c', 1)],
    ]);
    const after = new Map([
      ['b', e('b', 1)],
      ['c', e('c', 2)],
      ['d', e('d', 1)],
    ]);
    expect(entryChanges(before, after)).toEqual({
      puts: [e('c', 2), e('d', 1)],
      deletes: [{ pk: 'SEARCH#T#o', sk: 'a' }],
    });
    expect(entryChanges(after, new Map(after))).toEqual({ puts: [], deletes: [] });
  });
});

describe('sameValuesCondition', () => {
  it('holds the stored values of the fields a listed book can change, and their absence', () => {
    const c = sameValuesCondition({
      name: 'Optics',
      priceCents: 700,
      condition: 'good',
      comments: 'x',
      author: null,
    });
    const byName = Object.fromEntries(Object.entries(c.names).map(([k, v]) => [v, k]));
    expect(c.expression).toContain(`${byName.priceCents} = `);
    expect(Object.values(c.values)).toEqual(expect.arrayContaining(['Optics', 700, 'good', 'x']));
    expect(c.expression).toContain(`attribute_not_exists(${byName.photoVersion})`);
    expect(byName.price).toBeUndefined(); // no stored book holds dollars
    // a null (or missing) author, course or ISBN must still be null or missing
    for (const a of ['author', 'course', 'ISBN']) {
      const name = byName[a] as string;
      const value = name.replace('#', ':');
      expect(c.expression).toContain(`(attribute_not_exists(${name}) OR attribute_type(${name}, ${value}))`);
      expect(c.values[value]).toBe('NULL');
    }
  });

  it('holds only the attributes asked for, under names that join another condition', () => {
    const c = sameValuesCondition(
      { name: 'Optics', priceCents: 700, ISBN: null },
      ['priceCents', 'ISBN'],
      's',
    );
    expect(c).toEqual({
      expression: '#s0 = :s0 AND (attribute_not_exists(#s1) OR attribute_type(#s1, :s1))',
      names: { '#s0': 'priceCents', '#s1': 'ISBN' },
      values: { ':s0': 700, ':s1': 'NULL' },
    });
  });
});
