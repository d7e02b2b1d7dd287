/**
 * What a search query means (pure). One query string is read, in this order, as:
 *  1. an ISBN (10 or 13 digits with a valid check digit, hyphens and spaces ignored) -> that ISBN-13;
 *  2. a course code (letters then digits, e.g. `CSC 171`, `csc-171`) -> books of that course, and
 *     also books whose title has those words (so `calc 101` still finds "Calculus 101");
 *  3. otherwise title words: every word must be a prefix of a word of the title or the author.
 * Characters that are not letters or digits only separate words: regex or expression
 * metacharacters are never syntax.
 */

import { courseTerm, isbnTerm, titleTerm } from '#lib/db/keys.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { toIsbn13 } from './isbn.ts';
import { indexPrefix, normaliseCourse, titleMatches, words } from './text.ts';

export interface SearchPlan {
  /** the index terms read, each newest first; a book matches if it matches any of them */
  terms: string[];
  /** the full check of a fetched book against the query */
  matches: (book: Pick<BookRecord, 'name' | 'author' | 'courseNorm' | 'ISBN'>) => boolean;
}

/** The words a title search looks in: the title's and the author's. */
export const searchedText = (b: Pick<BookRecord, 'name' | 'author'>): string =>
  b.author ? `${b.name} ${b.author}` : b.name;

const COURSE = /^\p{L}{2,8}\d{1,5}\p{L}?$/u;

/** The search plan of a query, or null when the query can match nothing (no letters or digits). */
export function planSearch(query: string): SearchPlan | null {
  const isbn = toIsbn13(query);
  if (isbn) return { terms: [isbnTerm(isbn)], matches: (b) => b.ISBN === isbn };

  const qWords = words(query);
  if (qWords.length === 0) return null;
  // The most selective title word: the longest (ties: the first).
  const longest = qWords.reduce((a, b) => (Array.from(b).length > Array.from(a).length ? b : a));
  const title = titleTerm(indexPrefix(longest));

  const course = normaliseCourse(query);
  if (COURSE.test(course) && query.replace(/[\s-]/g, '').length === course.length) {
    return {
      terms: [courseTerm(course), title],
      matches: (b) => b.courseNorm === course || titleMatches(searchedText(b), qWords),
    };
  }
  return { terms: [title], matches: (b) => titleMatches(searchedText(b), qWords) };
}
