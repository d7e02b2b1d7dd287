/**
 * Pure normalisers the matching rule works on: course codes, ISBNs and significant title words.
 *
 * NOTE: the listings area (lib/books/) has its own versions of these; they must be unified into one
 * module once both branches are merged (the rules below follow API.md and should agree).
 */

/** `csc 171`, `CSC-171` and `Csc171` are all `CSC171`: upper case, no whitespace or hyphens. */
export function normaliseCourse(course: string): string {
  return course.toUpperCase().replace(/[\s\-\u2010-\u2015]+/g, '');
}

const isbn13CheckDigit = (first12: string): number => {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
};

/** Whether a string of 10 characters is a valid ISBN-10 (digits, last may be X). */
function validIsbn10(s: string): boolean {
  if (!/^\d{9}[\dX]$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const c = s[i] as string;
    sum += (c === 'X' ? 10 : Number(c)) * (10 - i);
  }
  return sum % 11 === 0;
}

/**
 * The ISBN-13 of an ISBN-10 or ISBN-13 (hyphens and spaces ignored), or null when the input is not
 * a valid ISBN (wrong length, characters or check digit). ISBN-10s become `978` + 9 digits + check.
 */
export function normaliseIsbn(raw: string): string | null {
  const s = raw.replace(/[\s-]+/g, '').toUpperCase();
  if (s.length === 10) {
    if (!validIsbn10(s)) return null;
    const first12 = `978${s.slice(0, 9)}`;
    return `${first12}${isbn13CheckDigit(first12)}`;
  }
  if (/^\d{13}$/.test(s)) {
    return isbn13CheckDigit(s.slice(0, 12)) === Number(s[12]) ? s : null;
  }
  return null;
}

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
 * The significant words of a title, distinct, in order of first appearance: lower case, split on
 * anything that is not a letter or digit, without stop words and one-character tokens.
 */
export function significantWords(title: string): string[] {
  const words = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w));
  return [...new Set(words)];
}

/**
 * The one word a request is indexed under for title matching: the longest significant word (ties
 * broken alphabetically), since long words are the rarest. A book matches a request by title only
 * if it contains every word of the request, so it contains this one: looking a book's words up in
 * this index finds every request that can match it by title. Null when the title has no
 * significant word (such a request matches by ISBN or course only).
 */
export function keyWord(words: readonly string[]): string | null {
  let best: string | null = null;
  for (const w of words) {
    if (best === null || w.length > best.length || (w.length === best.length && w < best)) best = w;
  }
  return best;
}
