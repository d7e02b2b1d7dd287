/**
 * ISBN rules (pure): hyphens and spaces are ignored, ISBN-10 and ISBN-13 check digits are
 * verified, and every valid ISBN is stored, searched and matched as its ISBN-13. The one source of
 * these rules (listings, search, requests and matching).
 */

/** The ISBN with hyphens and spaces removed, upper case (an ISBN-10 may end in `X`). */
export const compactIsbn = (input: string): string => input.replace(/[\s-]/g, '').toUpperCase();

export function isValidIsbn10(digits: string): boolean {
  if (!/^\d{9}[\dX]$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const c = digits[i] as string;
    sum += (c === 'X' ? 10 : Number(c)) * (10 - i);
  }
  return sum % 11 === 0;
}

export function isbn13CheckDigit(first12: string): number {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
}

export function isValidIsbn13(digits: string): boolean {
  if (!/^97[89]\d{10}$/.test(digits)) return false;
  return isbn13CheckDigit(digits.slice(0, 12)) === Number(digits[12]);
}

/** An ISBN-10 as its ISBN-13 (prefix 978, new check digit). Assumes a valid ISBN-10. */
export function isbn10To13(isbn10: string): string {
  const first12 = `978${isbn10.slice(0, 9)}`;
  return `${first12}${isbn13CheckDigit(first12)}`;
}

/** The ISBN-13 of a valid ISBN-10 or ISBN-13 (hyphens and spaces ignored), or null if invalid. */
export function toIsbn13(input: string): string | null {
  const c = compactIsbn(input);
  if (c.length === 13) return isValidIsbn13(c) ? c : null;
  if (c.length === 10) return isValidIsbn10(c) ? isbn10To13(c) : null;
  return null;
}
