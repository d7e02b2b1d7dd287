import { describe, expect, it } from 'vitest';
import { planSearch } from '#lib/books/search-terms.ts';

const book = (name: string, courseNorm = 'MTH101', ISBN: string | null = null) => ({
  name,
  courseNorm,
  ISBN,
});

describe('search query plans', () => {
  it('reads a valid ISBN-10 or -13, hyphens and spaces ignored, as the ISBN-13', () => {
    for (const q of ['0306406152', '0-306-40615-2', '978-0-306-40615-7', '978 0306406157']) {
      const plan = planSearch(q);
      expect(plan?.terms, q).toEqual(['I#9780306406157']);
      expect(plan?.matches(book('x', 'A1', '9780306406157'))).toBe(true);
      expect(plan?.matches(book('x', 'A1', '9780262033848'))).toBe(false);
    }
  });

  it('reads course-shaped queries as the course code and as title words', () => {
    for (const q of ['CSC 171', 'csc171', 'CSC-171']) {
      const plan = planSearch(q);
      expect(plan?.terms, q).toEqual(['C#CSC171', expect.stringMatching(/^T#/)]);
      expect(plan?.matches(book('Anything', 'CSC171'))).toBe(true);
      expect(plan?.matches(book('Anything', 'CSC172'))).toBe(false);
    }
    expect(planSearch('calc 101')?.matches(book('Calculus 101', 'MTH200'))).toBe(true);
  });

  it('reads other queries as title word prefixes, using the longest word as the index term', () => {
    const plan = planSearch('calc early transcend');
    expect(plan?.terms).toEqual(['T#transcend']);
    expect(plan?.matches(book('Calculus: Early Transcendentals'))).toBe(true);
    expect(plan?.matches(book('Calculus'))).toBe(false);
  });

  it('cuts long query words to the indexed prefix length but checks them in full', () => {
    const plan = planSearch('electroencephalography');
    expect(plan?.terms).toEqual(['T#electroencep']);
    expect(plan?.matches(book('Electroencephalography Basics'))).toBe(true);
    expect(plan?.matches(book('Electroencephalographer'))).toBe(false);
  });

  it('treats regex and expression metacharacters as text, never as syntax', () => {
    expect(planSearch('.*')).toBeNull();
    expect(planSearch('$where')?.terms).toEqual(['T#where']);
    expect(planSearch("' OR 1=1 --")?.matches(book('Anything'))).toBe(false);
    expect(planSearch('C++')?.matches(book('C++ Primer'))).toBe(true);
  });
});
