/**
 * One-typo matching (pure): the "symmetric delete" scheme. Two words are within one edit (a letter
 * inserted, deleted or replaced, or two neighbours swapped) only if they share a deletion
 * variant (the word itself or the word with one letter removed), so the index keeps, for every
 * title and author word of TYPO_MIN..TYPO_MAX letters, its variants, and a query word's variants
 * name the indexed words it may be a typo of; `withinOneEdit` then keeps only the true neighbours.
 */

/** Words shorter than this get no typo tolerance (too many neighbours). */
export const TYPO_MIN = 5;
/** Longer words are not indexed for typos (their 12-letter prefix is searched exactly instead). */
export const TYPO_MAX = 16;

/** Whether a word gets typo tolerance: TYPO_MIN..TYPO_MAX characters, letters only. */
export const typoEligible = (word: string): boolean => {
  const n = Array.from(word).length;
  return n >= TYPO_MIN && n <= TYPO_MAX && /^\p{L}+$/u.test(word);
};

/** The word and every word made by removing one of its characters, without repeats. */
export function deletionVariants(word: string): string[] {
  const chars = Array.from(word);
  const out = new Set<string>([word]);
  for (let i = 0; i < chars.length; i++) out.add([...chars.slice(0, i), ...chars.slice(i + 1)].join(''));
  return [...out];
}

/**
 * Whether `a` and `b` differ by at most one edit: one insertion, deletion or replacement, or one
 * swap of two neighbouring characters (optimal string alignment distance <= 1).
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const x = Array.from(a);
  const y = Array.from(b);
  if (Math.abs(x.length - y.length) > 1) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const rest = (p: string[], q: string[]) => p.join('') === q.join('');
  if (x.length === y.length) {
    // replace at i, or swap i and i+1
    if (rest(x.slice(i + 1), y.slice(i + 1))) return true;
    return x[i] === y[i + 1] && x[i + 1] === y[i] && rest(x.slice(i + 2), y.slice(i + 2));
  }
  // one longer: delete its character at i
  return x.length > y.length ? rest(x.slice(i + 1), y.slice(i)) : rest(x.slice(i), y.slice(i + 1));
}

/**
 * Whether a query word matches a text word allowing one typo: the text word starts with it, or
 * both have TYPO_MIN+ letters and are within one edit.
 */
export function typoMatches(queryWord: string, textWord: string): boolean {
  if (textWord.startsWith(queryWord)) return true;
  return (
    Array.from(queryWord).length >= TYPO_MIN &&
    Array.from(textWord).length >= TYPO_MIN &&
    withinOneEdit(queryWord, textWord)
  );
}
