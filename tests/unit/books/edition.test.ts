import { describe, expect, it } from 'vitest';
import { parseEdition } from '#lib/books/edition.ts';

describe('edition text read as a number', () => {
  it.each([
    ['2nd ed.', 2],
    ['3rd ed', 3],
    ['1st edition', 1],
    ['11th Edition', 11],
    ['14th edition, global edition', 14],
    ['Eighth edition', 8],
    ['Second ed.', 2],
    ['twentieth edition', 20],
    ['Ed. 4', 4],
    ['edition 5', 5],
    ['7', 7],
    ['Rev. 2nd ed.', 2],
  ])('reads %j as %i', (text, edition) => {
    expect(parseEdition(text)).toBe(edition);
  });

  it.each([
    ['Revised edition'],
    ['International edition'],
    ['Student ed.'],
    [''],
    ['   '],
    ['0th ed.'],
    ['150th edition'],
    ['2009'],
    ['Twenty-first century edition'],
  ])('leaves %j to the seller (null)', (text) => {
    expect(parseEdition(text)).toBeNull();
  });

  it('takes no text at all as no edition', () => {
    expect(parseEdition(undefined)).toBeNull();
    expect(parseEdition(null)).toBeNull();
  });
});
