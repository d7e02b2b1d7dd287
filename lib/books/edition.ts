/**
 * An edition written as text by a book-data source ("2nd ed.", "Third edition", "Ed. 4",
 * "10th edition, international") read as the integer a listing takes (1..100), or null when the
 * text does not say one number plainly ("Revised edition", "1st American ed., 2nd printing" is
 * read as 1: the edition is the number written before "ed"/"edition"). Pure.
 */

const ORDINAL_WORDS: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
};

/** The highest edition a listing accepts (lib/books/inputs.ts). */
const MAX_EDITION = 100;

const inRange = (n: number): number | null => (Number.isInteger(n) && n >= 1 && n <= MAX_EDITION ? n : null);

/** `2nd ed.`, `3rd edition`, `11th Edition` (the number right before "ed"/"edition"). */
const NUMBERED = /(?:^|[^\p{L}\p{N}])(\d{1,3})\s*(?:st|nd|rd|th)?\.?\s*(?:ed\b|edn\b|edition\b)/iu;
/** `Ed. 4`, `edition 5` (the number right after). */
const NUMBER_AFTER = /(?:^|[^\p{L}\p{N}])(?:ed|edn|edition)\.?\s*(\d{1,3})(?![\p{L}\p{N}])/iu;
/** `Second edition`, `third ed.` */
const WORDED = /(?:^|[^\p{L}\p{N}])([a-z]+)\s+(?:ed\b|edn\b|edition\b)/iu;

/** The edition number an edition text states, or null when it states none (or none in 1..100). */
export function parseEdition(text: string | null | undefined): number | null {
  if (typeof text !== 'string') return null;
  const t = text.trim();
  if (t === '') return null;
  if (/^\d{1,3}$/.test(t)) return inRange(Number(t));
  const numbered = NUMBERED.exec(t) ?? NUMBER_AFTER.exec(t);
  if (numbered?.[1]) return inRange(Number(numbered[1]));
  const worded = WORDED.exec(t)?.[1]?.toLowerCase();
  if (worded && worded in ORDINAL_WORDS) return ORDINAL_WORDS[worded] ?? null;
  return null;
}
