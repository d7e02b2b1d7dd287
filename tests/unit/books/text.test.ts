import { describe, expect, it } from 'vitest';
import { searchTermsOf } from '#lib/books/search-index.ts';
import {
  indexPrefix,
  MAX_PREFIX,
  normaliseCourse,
  titleMatches,
  titlePrefixes,
  words,
} from '#lib/books/text.ts';

describe('course codes', () => {
  it('treats CSC 171, csc171 and CSC-171 as the same code', () => {
    for (const c of ['CSC 171', 'csc171', 'CSC-171', ' csc - 171 ', 'Csc_171'])
      expect(normaliseCourse(c)).toBe('CSC171');
  });
});

describe('title words', () => {
  it('splits on anything but letters and digits, lower-cased, accents removed', () => {
    expect(words('C++ Primer (5th Ed.)')).toEqual(['c', 'primer', '5th', 'ed']);
    expect(words('Élan vital: Ökonomie')).toEqual(['elan', 'vital', 'okonomie']);
    expect(words('.*$^[](){}|\\')).toEqual([]);
  });

  it('indexes every prefix of every word up to the cap, without repeats', () => {
    expect(titlePrefixes('Calc Ca')).toEqual(['c', 'ca', 'cal', 'calc']);
    const long = titlePrefixes('Electroencephalography');
    expect(long).toHaveLength(MAX_PREFIX);
    expect(long.at(-1)).toBe('electroencep');
    expect(indexPrefix('electroencephalography')).toBe('electroencep');
  });

  it('matches when every query word starts a word of the title', () => {
    expect(titleMatches('Calculus: Early Transcendentals', ['calc', 'early'])).toBe(true);
    expect(titleMatches('Calculus: Early Transcendentals', ['calc', 'late'])).toBe(false);
    expect(titleMatches('Calculus', ['alc'])).toBe(false);
  });
});

describe('index terms of a book', () => {
  it('has title prefixes, the course code and the ISBN-13', () => {
    const terms = searchTermsOf({ name: 'Go', courseNorm: 'CSC171', ISBN: '9780306406157' });
    expect(terms).toEqual(['T#g', 'T#go', 'C#CSC171', 'I#9780306406157']);
    expect(searchTermsOf({ name: 'Go', courseNorm: '', ISBN: null })).toEqual(['T#g', 'T#go']);
  });
});
