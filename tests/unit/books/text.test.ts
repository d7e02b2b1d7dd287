import { describe, expect, it } from 'vitest';
import { searchTermsOf } from '#lib/books/search-index.ts';
import * as text from '#lib/books/text.ts';

describe('course codes', () => {
  it.each(['CSC 171', 'csc171', 'CSC-171', ' csc - 171 ', '  csc -  171 ', 'csc\t171', 'Csc_171'])(
    'reads %j as CSC171, one code however it is spaced, cased or joined',
    (course) => expect(text.normaliseCourse(course)).toBe('CSC171'),
  );

  it('keeps the letters after the number, upper-cased: Math 161H is MATH161H', () => {
    expect(text.normaliseCourse('Math 161H')).toBe('MATH161H');
  });
});

describe('title words', () => {
  it('splits on anything but letters and digits, lower-cased, accents removed', () => {
    expect(text.words('C++ Primer (5th Ed.)')).toEqual(['c', 'primer', '5th', 'ed']);
    expect(text.words('Élan vital: Ökonomie')).toEqual(['elan', 'vital', 'okonomie']);
    expect(text.words('.*$^[](){}|\\')).toEqual([]);
  });

  it('indexes every prefix of every word up to the cap, without repeats', () => {
    expect(text.titlePrefixes('Calc Ca')).toEqual(['c', 'ca', 'cal', 'calc']);
    const long = text.titlePrefixes('Electroencephalography');
    expect(long).toHaveLength(text.MAX_PREFIX);
    expect(long.at(-1)).toBe('electroencep');
    expect(text.indexPrefix('electroencephalography')).toBe('electroencep');
  });

  it('matches when every query word starts a word of the title', () => {
    expect(text.titleMatches('Calculus: Early Transcendentals', ['calc', 'early'])).toBe(true);
    expect(text.titleMatches('Calculus: Early Transcendentals', ['calc', 'late'])).toBe(false);
    expect(text.titleMatches('Calculus', ['alc'])).toBe(false);
  });
});

describe('index terms of a book', () => {
  it("has title prefixes, the course code, the course's department and number, and the ISBN-13", () => {
    const terms = searchTermsOf({ name: 'Go', courseNorm: 'CSC171', ISBN: '9780306406157' });
    expect(terms).toEqual(['T#g', 'T#go', 'C#CSC171', 'D#CSC', 'N#171', 'I#9780306406157']);
    expect(searchTermsOf({ name: 'Go', courseNorm: '', ISBN: null })).toEqual(['T#g', 'T#go']);
  });
});
