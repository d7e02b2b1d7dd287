import { describe, expect, it } from 'vitest';
import { CONDITION_GRADES, parseGrade } from '#lib/values/condition.ts';

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
});
