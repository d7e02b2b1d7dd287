/**
 * GET /api/books/lookupIsbn/{isbn}: the book an ISBN names, from the cache or the book-data source
 * (Open Library, lib/books/open-library.ts), and the price hint of past sales (./price-hint.ts).
 *
 * Order of work: the ISBN's check digit (400) -> the caller's hourly allowance (429 with
 * Retry-After; counted for every lookup, cached or not) -> the cache (one GetItem) -> on a miss,
 * the source (one GET, at most SOURCE_TIMEOUT_MS), whose answer, found or not found, is cached for
 * 30 days -> the price hint (one GetItem, two when the campus has fewer than 3 sales).
 *
 * A slow or failing source with nothing cached answers 200 with `book: null` and
 * `source: 'unavailable'` (not 503): the lookup only fills the Sell form, it never blocks posting,
 * and the price hint still answers. Nothing is cached then, so the next lookup asks again.
 */
import { takeAttempt } from '#lib/accounts/throttle.ts';
import { config } from '#lib/config.ts';
import { getCachedLookup, putCachedLookup, type SourceBook } from '#lib/db/isbn-lookups.ts';
import { BadRequest } from '#lib/errors.ts';
import { isCoverUrl } from './cover-url.ts';
import { toIsbn13 } from './isbn.ts';
import type { IsbnLookup } from './lookup-schemas.ts';
import { fetchFromSource } from './open-library.ts';
import { priceHintFor } from './price-hint.ts';

/** Lookups per user and hour (a sliding window, lib/accounts/throttle.ts); beyond: 429. */
export const ISBN_LOOKUP_LIMIT = { action: 'isbn-lookup', limit: 60, windowSeconds: 3600 } as const;

export const BAD_ISBN_MESSAGE =
  'That is not a valid ISBN. An ISBN has 10 or 13 digits (an ISBN-10 may end in X) and its last digit checks the others: one of them looks mistyped.';

/** The ISBN-13 of an ISBN-10 or -13 as typed (hyphens and spaces allowed), or a 400 in plain words. */
export function isbn13Of(input: string): string {
  const isbn13 = toIsbn13(input);
  if (!isbn13)
    throw new BadRequest(BAD_ISBN_MESSAGE, [{ field: 'isbn', message: BAD_ISBN_MESSAGE }], 'ISBN_INVALID');
  return isbn13;
}

/** Looks an ISBN up for a signed-in caller (see the module comment for the order and the costs). */
export async function lookupIsbn(
  caller: { userId: string; campus: string | null },
  isbn: string,
  now = new Date(),
): Promise<IsbnLookup> {
  const isbn13 = isbn13Of(isbn);
  await takeAttempt(ISBN_LOOKUP_LIMIT, caller.userId, now);
  const [found, priceHint] = await Promise.all([bookOf(isbn13, now), priceHintFor(isbn13, caller.campus)]);
  return { isbn13, ...found, priceHint };
}

/** The book from the cache, else from the source (then cached unless the source was unavailable). */
async function bookOf(isbn13: string, now: Date): Promise<Pick<IsbnLookup, 'book' | 'source'>> {
  const cached = await getCachedLookup(isbn13, now);
  // an answer cached before covers were held to ./cover-url.ts loses a cover postBook would refuse
  if (cached) return { book: cached.book && keptCover(cached.book), source: 'cache' };
  const answer = await fetchFromSource(config.ISBN_LOOKUP_URL, isbn13);
  if (answer.kind === 'unavailable') return { book: null, source: 'unavailable' };
  const book = answer.kind === 'found' ? answer.book : null;
  await putCachedLookup(isbn13, book, now);
  return { book, source: 'openLibrary' };
}

const keptCover = (book: SourceBook): SourceBook =>
  book.coverUrl && !isCoverUrl(book.coverUrl) ? { ...book, coverUrl: null } : book;
