import { describe, expect, it } from 'vitest';
import { searchTermsOf, typoAdditions } from '#lib/books/search-index.ts';
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

describe('a book\'s index writes (docs/browsing.md, "What a book\'s write costs")', () => {
  const listed = (name: string, author: string | undefined, courseNorm: string, ISBN: string | null) => ({
    type: 'book',
    status: 0,
    id: '01J0000000000000000000000A',
    date: '2026-01-01T00:00:00.000Z',
    priceCents: 2500,
    name,
    courseNorm,
    ISBN,
    ...(author ? { author } : {}),
  });
  const books = [
    listed('Calculus: Early Transcendentals', undefined, 'MTH161', '9781285741550'),
    listed('Calculus: Early Transcendentals', 'James Stewart', 'MTH161', '9781285741550'),
    listed('Introduction to Algorithms', 'Thomas H. Cormen', 'CSC171', '9780262033848'),
    listed('Organic Chemistry', 'Paula Yurkanis Bruice', 'CHEM210', null),
    // the most typo variants a word can have, every word at the limit
    listed('Electromagnetics Thermodynamical Photolithography', 'Abcdefghijklmnop', 'PHYS9999', null),
  ];

  it('stays under 3x the write units of before (4 per term, 1 per vocabulary item)', () => {
    for (const b of books) {
      const terms = searchTermsOf(b);
      const before = terms.filter((t) => !/^[DN]#/.test(t)).length * 4;
      const after = terms.length * 4 + typoAdditions(undefined, b).size;
      expect(after / before, b.name).toBeLessThan(1.5);
    }
    expect(typoAdditions(undefined, books[0]).size).toBe(31);
  });

  it('writes no vocabulary for a change that keeps the words, and none for an unlisted book', () => {
    const [book] = books as [ReturnType<typeof listed>];
    expect(typoAdditions(book, { ...book, priceCents: 1000 }).size).toBe(0);
    expect(typoAdditions(book, { ...book, status: 5 }).size).toBe(0);
    // a new title word: only its variants
    const renamed = typoAdditions(book, { ...book, name: 'Calculus: Early Transcendentals Methods' });
    expect([...renamed.keys()].sort()).toEqual(deletionVariants('methods').sort());
  });
});
