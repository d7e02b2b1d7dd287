import { describe, expect, it } from 'vitest';
import { uniqueWord } from '#bench/harness/stream-lag.ts';
import { planSearch } from '#lib/books/search-terms.ts';

describe('stream lag posts', () => {
  it('give every post its own letters-only title word, which search reads as a title word', () => {
    const words = Array.from({ length: 2_000 }, (_, i) => uniqueWord('mf3x9k2a', i));
    expect(new Set(words).size).toBe(words.length);
    for (const w of words) expect(w).toMatch(/^lag[a-z]+$/);
    const plan = planSearch(words[1234] as string);
    expect(plan?.matches({ name: `Lagbook ${words[1234]}`, courseNorm: 'LAG101', ISBN: '' })).toBe(true);
    expect(plan?.matches({ name: `Lagbook ${words[1235]}`, courseNorm: 'LAG101', ISBN: '' })).toBe(false);
  });
});
