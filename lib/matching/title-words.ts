/**
 * The matching rule's title words: the shared tokeniser (lib/books/text.ts `words`) without stop
 * words and one-character tokens, whole words only. Course codes and ISBNs use the shared rules
 * (lib/books/text.ts `normaliseCourse`, lib/books/isbn.ts `toIsbn13`).
 */
import { words } from '#lib/books/text.ts';
import { fitsKey } from '#lib/db/keys.ts';

/** Words that carry no meaning for matching a title. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'the',
  'a',
  'an',
  'of',
  'and',
  'to',
  'in',
  'for',
  'with',
  'on',
  'at',
  'by',
  'from',
  'or',
  'edition',
  'ed',
  'vol',
  'volume',
]);

/**
 * The significant words of a title, distinct, in order of first appearance: the title's words
 * (lower case, accents removed, split on anything that is not a letter or digit) without stop
 * words and one-character tokens.
 */
export function significantWords(title: string): string[] {
  return [...new Set(words(title).filter((w) => w.length > 1 && !STOP_WORDS.has(w)))];
}

/**
 * The one word a request is indexed under for title matching: the longest significant word (ties
 * broken alphabetically), since long words are the rarest. A book matches a request by title only
 * if it contains every word of the request, so it contains this one: looking a book's words up in
 * this index finds every request that can match it by title. Null when the title has no
 * significant word that fits an index key (such a request matches by ISBN or course only; the
 * book side skips the same overlong words, lib/db/keys.ts `fitsKey`).
 */
export function keyWord(words: readonly string[]): string | null {
  let best: string | null = null;
  for (const w of words) {
    if (!fitsKey(w)) continue;
    if (best === null || w.length > best.length || (w.length === best.length && w < best)) best = w;
  }
  return best;
}
