import { describe, expect, it } from 'vitest';
import { CONDITION_GRADES, parseGrade } from '#lib/values/condition.ts';

describe('condition grades', () => {
  it('reads every grade case-insensitively, with spaces for hyphens', () => {
    const written = {
      'Like New': 'like-new',
      '  VERY good ': 'very-good',
      new: 'new',
      Acceptable: 'acceptable',
    };
    for (const [text, grade] of Object.entries(written)) expect(parseGrade(text), text).toBe(grade);
    for (const g of CONDITION_GRADES) expect(parseGrade(g)).toBe(g);
  });

  it('refuses anything else', () => {
    for (const bad of ['', 'used', 'likenew', 'excellent', 'good!']) expect(parseGrade(bad), bad).toBeNull();
  });
});
