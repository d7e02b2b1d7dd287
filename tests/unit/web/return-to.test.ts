/** Where a login or sign-up sends the visitor back to (web/src/return-to.ts): only a path on this site. */
import { describe, expect, it } from 'vitest';
import { sitePath, withNext } from '#web/return-to.ts';

describe('sitePath', () => {
  it('keeps a path on this site, with its query', () => {
    expect(sitePath('/books/01ABC')).toBe('/books/01ABC');
    expect(sitePath('/requests?name=Calculus')).toBe('/requests?name=Calculus');
  });

  it('refuses anything a browser would take to another site, and nothing at all', () => {
    expect(sitePath('https://evil.example/')).toBeUndefined();
    expect(sitePath('//evil.example/')).toBeUndefined();
    // browsers read a backslash after the first slash as a second slash
    expect(sitePath('/\\evil.example/')).toBeUndefined();
    expect(sitePath('books/1')).toBeUndefined();
    expect(sitePath('')).toBeUndefined();
    expect(sitePath(null)).toBeUndefined();
    expect(sitePath(undefined)).toBeUndefined();
  });
});

describe('withNext', () => {
  it('adds the page to come back to, encoded, or nothing', () => {
    expect(withNext('/signup', '/books/a b')).toBe('/signup?next=%2Fbooks%2Fa%20b');
    expect(withNext('/login', undefined)).toBe('/login');
  });
});
