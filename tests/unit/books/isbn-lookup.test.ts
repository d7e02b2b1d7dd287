import { describe, expect, it } from 'vitest';
import { isbn10To13, isValidIsbn13 } from '#lib/books/isbn.ts';
import { BAD_ISBN_MESSAGE, isbn13Of } from '#lib/books/isbn-lookup.ts';
import { toSourceBook, yearOf } from '#lib/books/open-library.ts';
import { MIN_SALES, summarisePrices } from '#lib/books/price-hint.ts';
import {
  countedSale,
  type KeptSales,
  SALE_PRICES_CAMPUSES,
  SALE_PRICES_KEPT,
  type Sale,
  withSale,
} from '#lib/db/sale-prices.ts';
import { BadRequest } from '#lib/errors.ts';
import { FIXTURE_BOOKS, FIXTURE_ISBNS, openLibraryEntry } from '#scripts/local/isbn-fixtures.ts';
import { TEXT_EDITION_BOOK } from '#tests/helpers/isbn.ts';

describe('the ISBN a lookup is asked for', () => {
  it('takes ISBN-13 and ISBN-10, with hyphens or spaces, as the same ISBN-13', () => {
    expect(isbn13Of('9780262033848')).toBe('9780262033848');
    expect(isbn13Of('978-0-262-03384-8')).toBe('9780262033848');
    expect(isbn13Of('0-262-03384-4')).toBe('9780262033848');
    expect(isbn13Of('0262033844')).toBe('9780262033848');
    expect(isbn13Of(' 0 262 51087 1 ')).toBe('9780262510875');
  });

  it('refuses a wrong check digit or length in plain words', () => {
    for (const bad of ['9780262033849', '0262033845', '97802620338', 'abc', '978026203384X']) {
      let thrown: unknown;
      try {
        isbn13Of(bad);
      } catch (err) {
        thrown = err;
      }
      expect(thrown, bad).toBeInstanceOf(BadRequest);
      expect((thrown as BadRequest).code).toBe('ISBN_INVALID');
      expect((thrown as BadRequest).message).toBe(BAD_ISBN_MESSAGE);
    }
  });
});

describe("Open Library's answer read as the lookup's book", () => {
  it('reads title, authors, the edition text, publisher, year and the large cover', () => {
    const sicp = FIXTURE_BOOKS.find((b) => b.isbn13 === FIXTURE_ISBNS.TEXT_EDITION);
    expect(sicp).toBeDefined();
    const entry = openLibraryEntry(sicp as NonNullable<typeof sicp>) as Parameters<typeof toSourceBook>[0];
    expect(toSourceBook(entry)).toEqual(TEXT_EDITION_BOOK);
  });

  it('leaves out what the entry lacks, and shows a cover over https only', () => {
    expect(toSourceBook({ title: '  Calculus  ' })).toEqual({
      title: 'Calculus',
      authors: [],
      edition: null,
      publisher: null,
      year: null,
      coverUrl: null,
    });
    expect(
      toSourceBook({ title: 'A', cover: { small: 'http://covers.openlibrary.org/b/id/1-S.jpg' } }).coverUrl,
    ).toBe('https://covers.openlibrary.org/b/id/1-S.jpg');
    expect(toSourceBook({ title: 'A', cover: { large: 'javascript:alert(1)' } }).coverUrl).toBeNull();
  });

  it('finds the year in the forms Open Library writes dates', () => {
    expect(yearOf('2009')).toBe(2009);
    expect(yearOf('March 1, 2010')).toBe(2010);
    expect(yearOf('c1996')).toBe(1996);
    expect(yearOf('n.d.')).toBeNull();
    expect(yearOf(undefined)).toBeNull();
  });
});

describe("the stand-in's fixtures", () => {
  it('are at least 20 textbooks with valid, distinct ISBN-13s (and ISBN-10s that convert to them)', () => {
    expect(FIXTURE_BOOKS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(FIXTURE_BOOKS.map((b) => b.isbn13)).size).toBe(FIXTURE_BOOKS.length);
    for (const b of FIXTURE_BOOKS) {
      expect(isValidIsbn13(b.isbn13), b.isbn13).toBe(true);
      if (b.isbn10) expect(isbn10To13(b.isbn10), b.isbn10).toBe(b.isbn13);
    }
  });

  it('hold the special cases: one without a cover, one "2nd ed.", one slow, and an unknown valid ISBN', () => {
    const of = (isbn: string) => FIXTURE_BOOKS.find((b) => b.isbn13 === isbn);
    expect(of(FIXTURE_ISBNS.NO_COVER)?.cover).toBe(false);
    expect(openLibraryEntry(of(FIXTURE_ISBNS.NO_COVER) as never)).not.toHaveProperty('cover');
    expect(of(FIXTURE_ISBNS.TEXT_EDITION)?.editionName).toBe('2nd ed.');
    expect(of(FIXTURE_ISBNS.SLOW)).toBeDefined();
    expect(isValidIsbn13(FIXTURE_ISBNS.UNKNOWN)).toBe(true);
    expect(of(FIXTURE_ISBNS.UNKNOWN)).toBeUndefined();
  });
});

describe('the price hint figures', () => {
  it(`gives nothing below ${MIN_SALES} sales`, () => {
    expect(summarisePrices([], 'campus')).toBeNull();
    expect(summarisePrices([1000, 2000], 'all')).toBeNull();
  });

  it('gives count, low, high and median (odd count: the middle one)', () => {
    expect(summarisePrices([3000, 1000, 2500], 'campus')).toEqual({
      count: 3,
      lowCents: 1000,
      highCents: 3000,
      medianCents: 2500,
      scope: 'campus',
    });
  });

  it('takes the mean of the two middle prices of an even count, rounded to the cent', () => {
    expect(summarisePrices([1000, 1999, 2000, 9000], 'all')).toMatchObject({ count: 4, medianCents: 2000 });
    expect(summarisePrices([1000, 1001, 1002, 1004], 'all')?.medianCents).toBe(1002);
  });
});

describe('the kept sales of an ISBN', () => {
  const sale = (n: number, cents = 1000 + n): Sale => ({
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    bookId: `B${String(n).padStart(3, '0')}`,
    cents,
  });
  const kept = (n: number) => Array.from({ length: n }, (_, i) => sale(i + 1));

  it('adds a new sale in time order', () => {
    expect(withSale([sale(1), sale(3)], sale(2))?.map((s) => s.bookId)).toEqual(['B001', 'B002', 'B003']);
  });

  it('counts a book once, however often it is offered', () => {
    expect(withSale([sale(1), sale(2)], sale(2))).toBeNull();
    expect(withSale([sale(1), sale(2)], { ...sale(2), cents: 1 })).toBeNull();
  });

  it(`keeps the latest ${SALE_PRICES_KEPT}, and refuses one older than all of them (a sale pushed out cannot come back)`, () => {
    const full = kept(SALE_PRICES_KEPT);
    const next = withSale(full, sale(500));
    expect(next).toHaveLength(SALE_PRICES_KEPT);
    expect(next?.at(-1)?.bookId).toBe('B500');
    expect(next?.some((s) => s.bookId === full[0]?.bookId)).toBe(false);
    // the one just pushed out, offered again (a redelivered record): nothing changes
    expect(withSale(next ?? [], full[0] as Sale)).toBeNull();
  });

  const empty: KeptSales = { all: [], campuses: {} };

  it('counts a sale in its campus list and the every-campus list at once, and only once', () => {
    const once = countedSale(empty, 'uni.edu', sale(1));
    expect(once).toEqual({ all: [sale(1)], campuses: { 'uni.edu': [sale(1)] } });
    expect(countedSale(once as KeptSales, 'uni.edu', sale(1))).toBeNull();
    // a sale of no campus counts in the every-campus list only
    expect(countedSale(once as KeptSales, null, sale(2))).toEqual({
      all: [sale(1), sale(2)],
      campuses: { 'uni.edu': [sale(1)] },
    });
  });

  it(`keeps the lists of the ${SALE_PRICES_CAMPUSES} campuses with the latest sales, and never recounts a sale of a dropped one`, () => {
    let item: KeptSales = empty;
    for (let n = 1; n <= SALE_PRICES_CAMPUSES + 1; n++)
      item = countedSale(item, `c${n}.edu`, sale(n)) as KeptSales;
    expect(Object.keys(item.campuses)).toHaveLength(SALE_PRICES_CAMPUSES);
    // the campus whose last sale is the oldest is dropped; every sale stays in the every-campus list
    expect(item.campuses['c1.edu']).toBeUndefined();
    expect(item.campuses[`c${SALE_PRICES_CAMPUSES + 1}.edu`]).toEqual([sale(SALE_PRICES_CAMPUSES + 1)]);
    expect(item.all).toHaveLength(SALE_PRICES_CAMPUSES + 1);
    // its record delivered again: counted already, it does not start the dropped campus's list again
    expect(countedSale(item, 'c1.edu', sale(1))).toBeNull();
    // nor once a newer sale has started that campus's list again
    const restarted = countedSale(item, 'c1.edu', sale(100)) as KeptSales;
    expect(restarted.campuses['c1.edu']).toEqual([sale(100)]);
    expect(countedSale(restarted, 'c1.edu', sale(1))).toBeNull();
  });
});
