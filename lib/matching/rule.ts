/**
 * The matching rule (API.md "Background work"): a listed book matches a request of another user
 * when they have the same ISBN, or the same normalised course code, or every significant word of
 * the requested title appears in the book's title. Pure: no I/O.
 */
import { toIsbn13 } from '#lib/books/isbn.ts';
import { normaliseCourse } from '#lib/books/text.ts';
import { significantWords } from './title-words.ts';

export interface MatchableRequest {
  userId: string;
  name: string;
  course: string;
  ISBN?: string | null;
}

export interface MatchableBook {
  ownerId: string;
  name: string;
  course: string;
  ISBN?: string | null;
}

export type MatchReason = 'isbn' | 'course' | 'title';

const isbnOf = (raw: string | null | undefined): string | null => (raw ? toIsbn13(raw) : null);

/** Why the book matches the request (first reason found), or null when it does not match. */
export function matchReason(request: MatchableRequest, book: MatchableBook): MatchReason | null {
  if (request.userId === book.ownerId) return null;
  const ri = isbnOf(request.ISBN);
  if (ri !== null && ri === isbnOf(book.ISBN)) return 'isbn';
  const rc = normaliseCourse(request.course);
  if (rc !== '' && rc === normaliseCourse(book.course)) return 'course';
  return sameTitle(request.name, book.name) ? 'title' : null;
}

/** Every significant word of the requested title is a word of the book's (none: never). */
function sameTitle(requested: string, title: string): boolean {
  const wanted = significantWords(requested);
  if (wanted.length === 0) return false;
  const have = new Set(significantWords(title));
  return wanted.every((w) => have.has(w));
}

/**
 * Whether buying the book answers the request: it is the book asked for, not only one for the
 * same course. By ISBN when both have one; else by the title's words, and the edition when the
 * request names one. Pure.
 */
export function answersRequest(
  request: Pick<MatchableRequest, 'name' | 'ISBN'> & { edition?: number | null },
  book: Pick<MatchableBook, 'name' | 'ISBN'> & { edition: number },
): boolean {
  const ri = isbnOf(request.ISBN);
  const bi = isbnOf(book.ISBN);
  if (ri !== null && bi !== null) return ri === bi;
  if (request.edition && request.edition !== book.edition) return false;
  return sameTitle(request.name, book.name);
}

export const matches = (request: MatchableRequest, book: MatchableBook): boolean =>
  matchReason(request, book) !== null;
