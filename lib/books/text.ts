/**
 * Text rules (pure): course code normalising and title tokenising. The one source of these rules
 * for listings, search and matching (lib/matching/title-words.ts builds on `words`).
 */

/** `CSC 171`, `csc171`, `CSC-171` -> `CSC171`: upper case, spaces, hyphens and other separators removed. */
export function normaliseCourse(course: string): string {
  return course
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** A normalised course code's department and number (`MATH235` -> MATH, 235), or null for another shape. */
export function courseParts(courseNorm: string): { dept: string; number: string } | null {
  const m = /^(\p{L}{2,8})(\d{1,5}\p{L}?)$/u.exec(courseNorm);
  return m ? { dept: m[1] as string, number: m[2] as string } : null;
}

/** Longest prefix of a title word that is indexed; longer query words are cut to it too. */
export const MAX_PREFIX = 12;

/** Lower-cased words of a text, accents removed, split on anything that is not a letter or digit. */
export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** Every indexed prefix (1..MAX_PREFIX characters) of every word of a title, without repeats. */
export function titlePrefixes(title: string): string[] {
  const out = new Set<string>();
  for (const w of words(title)) {
    const chars = Array.from(w);
    for (let n = 1; n <= Math.min(chars.length, MAX_PREFIX); n++) out.add(chars.slice(0, n).join(''));
  }
  return [...out];
}

/** The indexed form of a query word: its first MAX_PREFIX characters. */
export const indexPrefix = (word: string): string => Array.from(word).slice(0, MAX_PREFIX).join('');

/** Whether every query word is a prefix of some word of the title. */
export function titleMatches(title: string, queryWords: string[]): boolean {
  const titleWords = words(title);
  return queryWords.every((q) => titleWords.some((t) => t.startsWith(q)));
}
