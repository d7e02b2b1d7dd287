import { getItem, putItem } from '#lib/table/items.ts';
import { expiresAfter } from '#lib/values/expiry.ts';
import { isbnLookupKey } from './keys.ts';

export const ISBN_CACHE_SECONDS = 30 * 24 * 3600;

/** A book as the source described it (lib/books/open-library.ts reads it from the answer). */
export interface SourceBook {
  title: string;
  authors: string[];
  /** the integer when the source's edition text can be read ("2nd ed." -> 2), else null */
  edition: number | null;
  publisher: string | null;
  year: number | null;
  coverUrl: string | null;
}

export interface CachedLookup {
  /** the source's book, or null: the source does not know this ISBN */
  book: SourceBook | null;
  fetchedAt: string;
}

/** The cached answer for an ISBN-13 (one GetItem), or null when none is kept or it has expired. */
export async function getCachedLookup(isbn13: string, now: Date): Promise<CachedLookup | null> {
  const item = await getItem<CachedLookup & { ttl?: number }>(isbnLookupKey(isbn13), { eventual: true });
  // DynamoDB deletes expired items within days, not at once: an expired one is not an answer
  if (!item || (typeof item.ttl === 'number' && item.ttl <= now.getTime() / 1000)) return null;
  return { book: item.book ?? null, fetchedAt: item.fetchedAt };
}

/** Keeps the source's answer for 30 days (one PutItem; a later answer replaces it). */
export async function putCachedLookup(isbn13: string, book: SourceBook | null, now: Date): Promise<void> {
  await putItem({
    ...isbnLookupKey(isbn13),
    type: 'isbnLookup',
    book,
    fetchedAt: now.toISOString(),
    ttl: expiresAfter(now, ISBN_CACHE_SECONDS),
  });
}
