import { describe, expect, it } from 'vitest';
import { courseOfQuery, planSearch, Rank } from '#lib/books/search-terms.ts';
import { words } from '#lib/books/text.ts';

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
    // one word of letters is also a department
    expect(planSearch('$where')?.terms).toEqual(['T#where', 'D#WHERE']);
    expect(planSearch("' OR 1=1 --")?.matches(book('Anything'))).toBe(false);
    expect(planSearch('C++')?.matches(book('C++ Primer'))).toBe(true);
  });
});

describe('what students type (issue 33, item 5)', () => {
  const b = (name: string, courseNorm: string, author?: string, ISBN: string | null = null) => ({
    name,
    courseNorm,
    ISBN,
    ...(author ? { author } : {}),
  });
  const rank = (q: string, book: ReturnType<typeof b>) => planSearch(q)?.rankOf(book) ?? null;

  it('reads a department alone, any case, as that department (and as a title word)', () => {
    for (const q of ['MATH', 'math', ' Math ']) {
      expect(planSearch(q)?.terms, q).toEqual(['T#math', 'D#MATH']);
      expect(rank(q, b('Linear Algebra', 'MATH235'))).toBe(Rank.deptOrNumber);
      expect(rank(q, b('Linear Algebra', 'MTH235'))).toBeNull();
    }
    // a title word still ranks above the department
    expect(rank('math', b('Mathematical Proofs', 'PHIL101'))).toBe(Rank.title);
  });

  it('reads a course number alone as every course with that number', () => {
    expect(planSearch('235')?.terms).toEqual(['T#235', 'N#235']);
    expect(rank('235', b('Linear Algebra', 'MATH235'))).toBe(Rank.deptOrNumber);
    expect(rank('235', b('Linear Algebra', 'CSC235'))).toBe(Rank.deptOrNumber);
    expect(rank('235', b('Linear Algebra', 'MATH2350'))).toBeNull();
  });

  it('reads course codes with or without a space, in any case, with common separators', () => {
    for (const q of ['MATH 235', 'math235', 'MATH-235', 'math_235', 'Math/235', 'math.235', 'MATH  235']) {
      expect(courseOfQuery(words(q)), q).toBe('MATH235');
      expect(planSearch(q)?.tiers[0], q).toEqual({ rank: Rank.course, terms: ['C#MATH235'] });
      expect(rank(q, b('Anything', 'MATH235')), q).toBe(Rank.course);
      expect(rank(q, b('Anything', 'MATH236')), q).toBeNull();
    }
    // not course codes: three words, a split inside the letters
    expect(courseOfQuery(words('ma th 235'))).toBeNull();
    expect(courseOfQuery(words('linear algebra'))).toBeNull();
  });

  it("finds an author's surname, ranked below the title words", () => {
    const axler = b('Linear Algebra Done Right', 'MATH235', 'Sheldon Axler');
    expect(rank('axler', axler)).toBe(Rank.author);
    expect(rank('linear', axler)).toBe(Rank.title);
    expect(rank('axler linear', axler)).toBe(Rank.author);
    expect(rank('stewart', axler)).toBeNull();
  });

  it('reads ISBN-10 and -13 with or without hyphens as one ISBN', () => {
    const book = b('x', 'A1', undefined, '9780306406157');
    for (const q of ['0306406152', '0-306-40615-2', '9780306406157', '978-0-306-40615-7']) {
      expect(planSearch(q)?.tiers, q).toEqual([{ rank: Rank.isbn, terms: ['I#9780306406157'] }]);
      expect(rank(q, book), q).toBe(Rank.isbn);
    }
  });

  it('finds title words and author names with one typo of 5+ letter words', () => {
    const organic = b('Organic Chemistry', 'CHEM210', 'Paula Bruice');
    expect(rank('orgnic chemistry', organic)).toBe(Rank.typo); // deleted
    expect(rank('organnic', organic)).toBe(Rank.typo); // inserted
    expect(rank('orgenic', organic)).toBe(Rank.typo); // replaced
    expect(rank('oragnic', organic)).toBe(Rank.typo); // neighbours swapped
    expect(rank('bruise', organic)).toBe(Rank.typo); // author name
    expect(rank('orgnc chemistry', organic)).toBeNull(); // two edits
    expect(rank('paila', organic)).toBe(Rank.typo); // 5 letters
    expect(rank('paul', organic)).toBe(Rank.author); // a prefix, not a typo
    expect(rank('pual', organic)).toBeNull(); // 4 letters: no typo tolerance
    expect(planSearch('orgnic chemistry')?.typoWord).toBe('chemistry');
    expect(planSearch('algoritms')?.tiers.map((t) => t.rank)).toEqual([Rank.title, Rank.author, Rank.typo]);
    expect(planSearch('calc')?.typoWord).toBeNull();
  });
});
