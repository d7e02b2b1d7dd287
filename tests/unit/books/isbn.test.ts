import { describe, expect, it } from 'vitest';
import { compactIsbn, isbn10To13, isValidIsbn10, isValidIsbn13, toIsbn13 } from '#lib/books/isbn.ts';

describe('ISBN rules', () => {
  it('accepts ISBN-13s whose check digit is right and refuses a wrong one', () => {
    expect(isValidIsbn13('9780306406157')).toBe(true);
    expect(isValidIsbn13('9780262033848')).toBe(true);
    expect(isValidIsbn13('9780306406158')).toBe(false);
    expect(isValidIsbn13('1234567890128')).toBe(false);
  });

  it('accepts ISBN-10s (also with a final X) and refuses a wrong check digit', () => {
    expect(isValidIsbn10('0306406152')).toBe(true);
    expect(isValidIsbn10('080442957X')).toBe(true);
    expect(isValidIsbn10('0306406153')).toBe(false);
    expect(isValidIsbn10('03064061X2')).toBe(false);
  });

  it('converts an ISBN-10 to its ISBN-13', () => {
    expect(isbn10To13('0306406152')).toBe('9780306406157');
    expect(isbn10To13('0262033844')).toBe('9780262033848');
    expect(isbn10To13('080442957X')).toBe('9780804429573');
  });

  it('ignores hyphens and spaces and reads a lower-case x', () => {
    expect(compactIsbn(' 978-0 306-40615-7 ')).toBe('9780306406157');
    expect(toIsbn13('0-8044-2957-x')).toBe('9780804429573');
    expect(toIsbn13('978 0 262 03384 8')).toBe('9780262033848');
  });

  it('gives null for anything that is not a valid ISBN', () => {
    for (const bad of ['', '12345', '978030640615', '97803064061570', 'abcdefghij', '9780306406158', '.*'])
      expect(toIsbn13(bad), bad).toBeNull();
  });
});
