import { describe, expect, it } from 'vitest';
import { deletionVariants, typoEligible, typoMatches, withinOneEdit } from '#lib/books/typo.ts';

describe('one-typo matching', () => {
  it('has the word and each one-letter deletion as variants, without repeats', () => {
    expect(deletionVariants('hello').sort()).toEqual(['ello', 'hell', 'helo', 'hllo', 'hello'].sort());
    // every one-edit neighbour shares a variant (the symmetric delete property)
    for (const typo of ['algoritms', 'algorithmss', 'algorithns', 'algortihms']) {
      const shared = deletionVariants(typo).filter((v) => deletionVariants('algorithms').includes(v));
      expect(shared.length, typo).toBeGreaterThan(0);
    }
  });

  it('is within one edit for one insertion, deletion, replacement or swap of neighbours', () => {
    expect(withinOneEdit('algorithms', 'algorithms')).toBe(true);
    expect(withinOneEdit('algoritms', 'algorithms')).toBe(true);
    expect(withinOneEdit('algorithms', 'algoritms')).toBe(true);
    expect(withinOneEdit('algorithns', 'algorithms')).toBe(true);
    expect(withinOneEdit('algortihms', 'algorithms')).toBe(true);
    expect(withinOneEdit('lagorithms', 'algorithms')).toBe(true);
    expect(withinOneEdit('algorithmz', 'algorithms')).toBe(true);
    expect(withinOneEdit('algoritmz', 'algorithms')).toBe(false);
    expect(withinOneEdit('algrotihms', 'algorithms')).toBe(false);
    expect(withinOneEdit('algorith', 'algorithms')).toBe(false);
  });

  it('gives typo tolerance to words of 5+ letters only', () => {
    expect(typoEligible('chem')).toBe(false);
    expect(typoEligible('chemi')).toBe(true);
    expect(typoEligible('c3po0')).toBe(false);
    expect(typoMatches('chemi', 'chemistry')).toBe(true); // a prefix
    expect(typoMatches('cjem', 'chem')).toBe(false);
    expect(typoMatches('cjemi', 'chemi')).toBe(true);
  });
});
