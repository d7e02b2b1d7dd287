/**
 * The book-data source of the ISBN lookup: Open Library's Books API (no key),
 * `<ISBN_LOOKUP_URL>/api/books?bibkeys=ISBN:<isbn13>&jscmd=data&format=json`. It answers an object
 * keyed by the bibkey as asked: the book (title, authors with their names, publishers,
 * publish_date, cover URLs, sometimes an `edition_name`), or `{}` when it does not know the ISBN.
 * One GET, given up after SOURCE_TIMEOUT_MS: a slow or failing source is `unavailable`, never an
 * error, so a lookup never blocks posting a book.
 */
import type { SourceBook } from '#lib/db/isbn-lookups.ts';
import { logger } from '#lib/logger.ts';
import * as z from '#lib/zod.ts';
import { isCoverUrl } from './cover-url.ts';
import { parseEdition } from './edition.ts';

export type { SourceBook };

/** How long the lookup waits for the source before answering without it. */
export const SOURCE_TIMEOUT_MS = 1500;

export type SourceAnswer =
  | { kind: 'found'; book: SourceBook }
  | { kind: 'unknown' }
  | { kind: 'unavailable' };

/** The part of an Open Library `jscmd=data` entry the lookup reads; anything else is ignored. */
const Named = z.object({ name: z.optional(z.string()) });
const OpenLibraryEntry = z.object({
  title: z.string(),
  subtitle: z.optional(z.string()),
  authors: z.optional(z.array(Named)),
  publishers: z.optional(z.array(Named)),
  publish_date: z.optional(z.string()),
  edition_name: z.optional(z.string()),
  cover: z.optional(
    z.object({
      small: z.optional(z.string()),
      medium: z.optional(z.string()),
      large: z.optional(z.string()),
    }),
  ),
});
type OpenLibraryEntry = z.infer<typeof OpenLibraryEntry>;

/**
 * A cover URL the app may keep with a book and show: https (Open Library's plain-http URLs are
 * upgraded) on the cover host, in the form postBook takes (./cover-url.ts), else null.
 */
const coverOf = (url: string | undefined): string | null => {
  if (!url) return null;
  try {
    const u = new URL(url);
    if (u.protocol === 'http:') u.protocol = 'https:';
    return isCoverUrl(u.toString()) ? u.toString() : null;
  } catch {
    return null;
  }
};

/** The 4-digit year in a publish date ("2009", "March 1, 2010", "c1996"), or null. */
export function yearOf(publishDate: string | undefined): number | null {
  const m = /(?:^|\D)(1[5-9]\d\d|20\d\d)(?!\d)/.exec(publishDate ?? '');
  return m?.[1] ? Number(m[1]) : null;
}

const clip = (s: string, max: number): string => s.trim().slice(0, max);

/** An Open Library entry as the lookup's book (texts cut to what a listing takes). */
export function toSourceBook(entry: OpenLibraryEntry): SourceBook {
  const edition = parseEdition(entry.edition_name) ?? parseEdition(entry.subtitle);
  const names = (list: { name?: string | undefined }[] | undefined) =>
    (list ?? []).map((a) => clip(a.name ?? '', 200)).filter((n) => n !== '');
  return {
    title: clip(entry.title, 200),
    authors: names(entry.authors),
    edition,
    publisher: names(entry.publishers)[0] ?? null,
    year: yearOf(entry.publish_date),
    coverUrl: coverOf(entry.cover?.large ?? entry.cover?.medium ?? entry.cover?.small),
  };
}

/** Asks the source about one ISBN-13. Never throws: a slow, failing or garbled answer is `unavailable`. */
export async function fetchFromSource(
  baseUrl: string,
  isbn13: string,
  timeoutMs = SOURCE_TIMEOUT_MS,
): Promise<SourceAnswer> {
  const bibkey = `ISBN:${isbn13}`;
  // the base may carry a path (a proxy in front of the source): keep it
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/api/books`);
  url.search = new URLSearchParams({ bibkeys: bibkey, jscmd: 'data', format: 'json' }).toString();
  try {
    const res = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json', 'user-agent': 'CampusBooks/1.0 (ISBN lookup)' },
    });
    if (!res.ok) {
      logger.warn('ISBN source answered an error', { status: res.status });
      await res.body?.cancel();
      return { kind: 'unavailable' };
    }
    const body = z.record(z.string(), z.unknown()).safeParse(await res.json());
    if (!body.success) return { kind: 'unavailable' };
    const raw = body.data[bibkey];
    if (raw === undefined) return { kind: 'unknown' };
    const entry = OpenLibraryEntry.safeParse(raw);
    if (!entry.success) {
      logger.warn('ISBN source answered an entry without a title', { isbn13 });
      return { kind: 'unavailable' };
    }
    return { kind: 'found', book: toSourceBook(entry.data) };
  } catch (err) {
    logger.warn('ISBN source unavailable', { reason: (err as Error).name, message: (err as Error).message });
    return { kind: 'unavailable' };
  }
}
