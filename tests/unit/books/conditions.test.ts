import { describe, expect, it } from 'vitest';
import { upgradeBook } from '#lib/db/records.ts';
import { CONDITION_GRADES, gradeOf, parseGrade } from '#lib/values/condition.ts';

describe('condition grades', () => {
  it('reads every grade case-insensitively, with spaces for hyphens', () => {
    expect(parseGrade('Like New')).toBe('like-new');
    expect(parseGrade('  VERY good ')).toBe('very-good');
    expect(parseGrade('new')).toBe('new');
    expect(parseGrade('Acceptable')).toBe('acceptable');
    for (const g of CONDITION_GRADES) expect(parseGrade(g)).toBe(g);
  });

  it('refuses anything else', () => {
    for (const bad of ['', 'used', 'likenew', 'excellent', 'good!']) expect(parseGrade(bad), bad).toBeNull();
  });

  it("maps today's free-text conditions to a grade for the migration", () => {
    expect(gradeOf('Brand new, still sealed')).toBe('new');
    expect(gradeOf('Like new')).toBe('like-new');
    expect(gradeOf('Used')).toBe('good');
    expect(gradeOf('Highlighted, binding intact')).toBe('good');
    expect(gradeOf('Fair - some water damage')).toBe('acceptable');
    expect(gradeOf('very good')).toBe('very-good');
    expect(gradeOf(undefined)).toBe('good');
  });

  it('upgrades a stored book written with dollars and free text to cents and a grade', () => {
    const up = upgradeBook({ id: 'b', price: 19.99, condition: 'Like new' });
    expect(up).toEqual({ id: 'b', priceCents: 1999, condition: 'like-new' });
    expect(upgradeBook({ id: 'b', priceCents: 5, condition: 'good' })).toEqual({
      id: 'b',
      priceCents: 5,
      condition: 'good',
    });
  });

  it('upgrades a half-migrated book (cents written, a legacy price or free-text condition left) and leaves a current one as it is', () => {
    expect(upgradeBook({ id: 'b', priceCents: 500, price: 5, condition: 'good' })).toEqual({
      id: 'b',
      priceCents: 500,
      condition: 'good',
    });
    expect(upgradeBook({ id: 'b', priceCents: 500, condition: 'Like new' })).toEqual({
      id: 'b',
      priceCents: 500,
      condition: 'like-new',
    });
    expect(upgradeBook({ id: 'b', price: 5, condition: 'new' })).toEqual({
      id: 'b',
      priceCents: 500,
      condition: 'new',
    });
    // a current book is read on every listing: it is answered as is, not copied
    const current = { id: 'b', priceCents: 500, condition: 'very-good' as const };
    expect(upgradeBook(current)).toBe(current);
  });
});
