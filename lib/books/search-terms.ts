/**
 * What a search query means (pure). One query string is read, in this order, as:
 *  1. an ISBN (10 or 13 digits with a valid check digit, hyphens and spaces ignored) -> that ISBN-13;
 *  2. a course code (letters then digits, any case, with or without a space, hyphen or other
 *     separator: `CSC 171`, `csc-171`, `math235`) -> books of that course, and also books whose
 *     title has those words (so `calc 101` still finds "Calculus 101");
 *  3. otherwise title words: every word must be a prefix of a word of the title or the author;
 *     a query of one word of letters is also a department (`MATH`, `math`), one of digits a
 *     course number (`235`, every department's);
 *  and, for words of TYPO_MIN+ letters, title and author words with one typo (lib/books/typo.ts).
 * Characters that are not letters or digits only separate words: regex or expression
 * metacharacters are never syntax.
 *
 * Relevance: each book a query finds has one rank, the first that applies (Rank); a relevance
 * page reads the plan's tiers in rank order, each tier newest first, and a tier keeps only the
 * books of its own rank, so a book found by several tiers is listed once, at its best rank.
 */

import { courseTerm, deptTerm, isbnTerm, numberTerm, titleTerm } from '#lib/db/keys.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { toIsbn13 } from './isbn.ts';
import { courseParts, indexPrefix, normaliseCourse, titleMatches, words } from './text.ts';
import { typoEligible, typoMatches } from './typo.ts';

/** The ranks of a relevance search, best first. */
export const Rank = {
  isbn: 0,
  course: 1,
  title: 2,
  author: 3,
  deptOrNumber: 4,
  typo: 5,
} as const;
export type Rank = (typeof Rank)[keyof typeof Rank];

export type SearchedBook = Pick<BookRecord, 'name' | 'author' | 'courseNorm' | 'ISBN'>;

/** One tier of a relevance search: the index terms it reads and the rank of the books it keeps. */
export interface SearchTier {
  rank: Rank;
  /**
   * the terms read; for the typo tier, the typo word's exact title term when the query has other
   * words (they may be the mistyped ones), to which the read adds the terms of the indexed words
   * within one edit of it (lib/books/listings.ts `typoTerms`)
   */
  terms: string[];
}

export interface SearchPlan {
  /** the index terms of the exact matches (every tier but typo's corrections), each newest first */
  terms: string[];
  /** the tiers of a relevance search, best rank first */
  tiers: SearchTier[];
  /** the query word whose one-typo neighbours are looked up (the longest eligible), or null */
  typoWord: string | null;
  /** a book's rank for this query, or null when it does not match */
  rankOf: (book: SearchedBook) => Rank | null;
  /** whether a book matches the query (any rank) */
  matches: (book: SearchedBook) => boolean;
}

/** The words a title search looks in: the title's and the author's. */
export const searchedText = (b: Pick<BookRecord, 'name' | 'author'>): string =>
  b.author ? `${b.name} ${b.author}` : b.name;

const COURSE = /^\p{L}{2,8}\d{1,5}\p{L}?$/u;
const DEPT = /^\p{L}{2,8}$/u;
const NUMBER = /^\d{1,5}\p{L}?$/u;

/** The course code a query is, or null: one or two words (`math235`, `MATH 235`, `MATH-235`). */
export function courseOfQuery(qWords: string[]): string | null {
  if (qWords.length === 0 || qWords.length > 2) return null;
  const course = normaliseCourse(qWords.join(''));
  if (!COURSE.test(course)) return null;
  // two words: letters then the number, not a split inside either
  if (qWords.length === 2 && !(DEPT.test(qWords[0] as string) && NUMBER.test(qWords[1] as string)))
    return null;
  return course;
}

/** Whether every query word matches a word of the text with at most one typo each. */
const typoTextMatches = (text: string, qWords: string[]): boolean => {
  const textWords = words(text);
  return qWords.every((q) => textWords.some((t) => typoMatches(q, t)));
};

/** The search plan of a query, or null when the query can match nothing (no letters or digits). */
export function planSearch(query: string): SearchPlan | null {
  const isbn = toIsbn13(query);
  if (isbn) {
    const rankOf = (b: SearchedBook): Rank | null => (b.ISBN === isbn ? Rank.isbn : null);
    const terms = [isbnTerm(isbn)];
    return {
      terms,
      tiers: [{ rank: Rank.isbn, terms }],
      typoWord: null,
      rankOf,
      matches: (b) => rankOf(b) !== null,
    };
  }

  const qWords = words(query);
  if (qWords.length === 0) return null;
  // The most selective title word: the longest (ties: the first).
  const longest = qWords.reduce((a, b) => (Array.from(b).length > Array.from(a).length ? b : a));
  const title = titleTerm(indexPrefix(longest));
  const course = courseOfQuery(qWords);
  const single = qWords.length === 1 ? (qWords[0] as string).toUpperCase() : null;
  const dept = single && DEPT.test(single) ? single : null;
  const number = single && NUMBER.test(single) ? single : null;
  const deptOrNumber = dept ? deptTerm(dept) : number ? numberTerm(number) : null;
  const typoWords = qWords.filter(typoEligible);
  const typoWord = typoWords.length > 0 ? typoWords.reduce((a, b) => (b.length > a.length ? b : a)) : null;

  const rankOf = (b: SearchedBook): Rank | null => {
    if (course && b.courseNorm === course) return Rank.course;
    if (titleMatches(b.name, qWords)) return Rank.title;
    const text = searchedText(b);
    if (titleMatches(text, qWords)) return Rank.author;
    const parts = courseParts(b.courseNorm);
    if (parts && ((dept && parts.dept === dept) || (number && parts.number === number)))
      return Rank.deptOrNumber;
    if (typoWord && typoTextMatches(text, qWords)) return Rank.typo;
    return null;
  };

  const tiers: SearchTier[] = [
    ...(course ? [{ rank: Rank.course, terms: [courseTerm(course)] }] : []),
    { rank: Rank.title, terms: [title] },
    { rank: Rank.author, terms: [title] },
    ...(deptOrNumber ? [{ rank: Rank.deptOrNumber, terms: [deptOrNumber] }] : []),
    // a one-word query's own term holds no typo match (its word matches exactly there)
    ...(typoWord
      ? [{ rank: Rank.typo, terms: qWords.length > 1 ? [titleTerm(indexPrefix(typoWord))] : [] }]
      : []),
  ];
  const terms = [...(course ? [courseTerm(course)] : []), title, ...(deptOrNumber ? [deptOrNumber] : [])];
  return { terms, tiers, typoWord, rankOf, matches: (b) => rankOf(b) !== null };
}
