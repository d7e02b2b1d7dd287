import { describe, expect, it } from 'vitest';
import { toIsbn13 } from '#lib/books/isbn.ts';
import {
  answersRequest,
  type MatchableBook,
  type MatchableRequest,
  matchReason,
} from '#lib/matching/rule.ts';
import { keyWord, significantWords } from '#lib/matching/title-words.ts';
import { statusAudience } from '#lib/notifications/processor.ts';

const request = (r: Partial<MatchableRequest> = {}): MatchableRequest => ({
  userId: 'requester',
  name: 'Unrelated Request Title',
  course: 'ZZZ 999',
  ISBN: null,
  ...r,
});
const book = (b: Partial<MatchableBook> = {}): MatchableBook => ({
  ownerId: 'seller',
  name: 'Some Other Book',
  course: 'YYY 111',
  ISBN: null,
  ...b,
});

describe('ISBN normalisation', () => {
  it.each([
    ['978-0-306-40615-7', '9780306406157'],
    ['9780306406157', '9780306406157'],
    ['0-306-40615-2', '9780306406157'],
    ['0306406152', '9780306406157'],
    ['0 13 110362 8', '9780131103627'],
    ['080442957X', '9780804429573'],
    ['080442957x', '9780804429573'],
  ])('turns %j into the ISBN-13 %j', (input, expected) => {
    expect(toIsbn13(input)).toBe(expected);
  });

  it.each([
    '9780306406158', // wrong check digit
    '0306406153', // wrong ISBN-10 check digit
    '978030640615', // 12 digits
    '12345',
    'abcdefghij',
    '',
    '97803064061570',
  ])('refuses %j', (input) => {
    expect(toIsbn13(input)).toBeNull();
  });
});

describe('significant title words', () => {
  it('lower-cases, splits on punctuation and drops stop words, edition words and one-letter tokens', () => {
    expect(significantWords('The Art of Computer Programming, Vol. 1 (3rd Edition)')).toEqual([
      'art',
      'computer',
      'programming',
      '3rd',
    ]);
  });

  it('keeps each word once and handles accents', () => {
    expect(significantWords('Calculus: calculus — CALCULUS')).toEqual(['calculus']);
    expect(significantWords('Économie générale')).toEqual(['economie', 'generale']);
  });

  it('finds nothing in a title of stop words only', () => {
    expect(significantWords('The A of an')).toEqual([]);
  });

  it('indexes a request under its longest word, ties broken alphabetically', () => {
    expect(keyWord(['linear', 'algebra', 'done', 'right'])).toBe('algebra');
    expect(keyWord(['abc', 'abd', 'ab'])).toBe('abc');
    expect(keyWord([])).toBeNull();
  });
});

describe('the matching rule', () => {
  const matching: Array<[string, Partial<MatchableRequest>, Partial<MatchableBook>, string]> = [
    ['the same ISBN-13', { ISBN: '9780306406157' }, { ISBN: '9780306406157' }, 'isbn'],
    ['an ISBN-10 and its ISBN-13', { ISBN: '0-306-40615-2' }, { ISBN: '9780306406157' }, 'isbn'],
    ['the same course written differently', { course: 'csc-171' }, { course: 'CSC 171' }, 'course'],
    ['the same course in other case', { course: 'Math161' }, { course: 'MATH 161' }, 'course'],
    [
      'every requested word in the title',
      { name: 'Calculus' },
      { name: 'Calculus: Early Transcendentals' },
      'title',
    ],
    [
      'requested words in another order and case',
      { name: 'transcendentals CALCULUS' },
      { name: 'Calculus: Early Transcendentals' },
      'title',
    ],
    [
      'a request with stop words the book lacks',
      { name: 'The Calculus of an Edition' },
      { name: 'Calculus' },
      'title',
    ],
    [
      'a multi-word request',
      { name: 'Introduction to Algorithms' },
      { name: 'Introduction to Algorithms, 3rd ed.' },
      'title',
    ],
    [
      'punctuation differences',
      { name: 'Linear-Algebra done right' },
      { name: 'Linear Algebra Done Right' },
      'title',
    ],
    [
      'a different course but the same ISBN',
      { ISBN: '9780131103627', course: 'A1' },
      { ISBN: '0131103628', course: 'B2' },
      'isbn',
    ],
  ];
  it.each(matching)('matches on %s', (_name, r, b, reason) => {
    expect(matchReason(request(r), book(b))).toBe(reason);
  });

  const notMatching: Array<[string, Partial<MatchableRequest>, Partial<MatchableBook>]> = [
    ['different ISBNs, courses and titles', { ISBN: '9780306406157' }, { ISBN: '9780131103627' }],
    ['a title missing one requested word', { name: 'Calculus Early Transcendentals' }, { name: 'Calculus' }],
    ['a word only as a prefix', { name: 'Calculus' }, { name: 'Calc I' }],
    ['a word only inside another word', { name: 'algebra' }, { name: 'Algebraic Topology' }],
    ['a request of stop words only (never matches everything)', { name: 'The' }, { name: 'The Odyssey' }],
    ['a book without ISBN against a request with one', { ISBN: '9780306406157' }, { ISBN: null }],
    ['a course that only shares a prefix', { course: 'CSC 17' }, { course: 'CSC 171' }],
    [
      'the requester’s own book, even with the same ISBN',
      { ISBN: '9780306406157', userId: 'u1' },
      { ISBN: '9780306406157', ownerId: 'u1' },
    ],
    [
      'the requester’s own book with the same course',
      { course: 'CSC 171', userId: 'u1' },
      { course: 'CSC171', ownerId: 'u1' },
    ],
  ];
  it.each(notMatching)('does not match on %s', (_name, r, b) => {
    expect(matchReason(request(r), book(b))).toBeNull();
  });
});

describe('who hears about a status change', () => {
  it.each([
    [0, 1, 'sold', ['seller']],
    [1, 2, 'verified', ['buyer']],
    [2, 3, 'delivered', ['seller', 'buyer']],
    [1, 0, 'cancelled', ['seller', 'buyer']],
    [2, 0, 'cancelled', ['seller', 'buyer']],
    // a suspended seller's cancelled purchase stays unlisted
    [1, 5, 'cancelled', ['seller', 'buyer']],
    [2, 5, 'cancelled', ['seller', 'buyer']],
  ])('%i -> %i notifies %s to %j', (from, to, kind, parties) => {
    expect(statusAudience(from, to)).toEqual({ kind, parties });
  });

  it.each([
    [0, 5],
    [5, 0],
    [3, 2],
    [0, 0],
  ])('%i -> %i notifies nobody', (from, to) => {
    expect(statusAudience(from, to)).toBeNull();
  });
});

describe('whether buying a book answers a request (the request is then closed)', () => {
  const bought = { name: 'Linear Algebra and Its Applications', ISBN: '9780321982384', edition: 5 };
  it.each([
    ['the same ISBN, written as ISBN-10 or 13', { name: 'Anything', ISBN: '0-321-98238-X' }, true],
    ['another ISBN, whatever the title', { name: 'Linear Algebra', ISBN: '9780306406157' }, false],
    ['the title words, no ISBN asked', { name: 'linear algebra', ISBN: null }, true],
    ['the title words and the edition asked', { name: 'Linear Algebra', ISBN: null, edition: 5 }, true],
    ['the title words, another edition asked', { name: 'Linear Algebra', ISBN: null, edition: 4 }, false],
    ['another title (the same course is not enough)', { name: 'Calculus', ISBN: null }, false],
    ['a title of stop words only', { name: 'The Edition', ISBN: null }, false],
  ])('%s', (_, r, answered) => {
    expect(answersRequest(r, bought)).toBe(answered);
  });
  it('goes by the title when the book has no ISBN', () => {
    expect(answersRequest({ name: 'Linear Algebra', ISBN: '9780321982384' }, { ...bought, ISBN: null })).toBe(
      true,
    );
  });
});
