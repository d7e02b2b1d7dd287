import { describe, expect, it } from 'vitest';
import { NoTokenParams, PageQuery, PostBookBody, SearchParams, UpdateBookBody } from '#lib/books/inputs.ts';
import { makeBookBody } from '#tests/helpers/books.ts';

const fieldsOf = (r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } }) =>
  r.error?.issues.map((i) => i.path.join('.')) ?? [];

describe('postBook body', () => {
  it('accepts a valid body and stores the ISBN as ISBN-13', () => {
    const r = PostBookBody.parse(makeBookBody({ ISBN: '0-306-40615-2' }));
    expect(r.ISBN).toBe('9780306406157');
    expect(r.comments).toBe('Some highlighting');
  });

  it('accepts `Comments` as well as `comments`, but not both', () => {
    expect(PostBookBody.parse(makeBookBody({ comments: undefined, Comments: 'old spelling' })).comments).toBe(
      'old spelling',
    );
    expect(PostBookBody.parse(makeBookBody({ comments: undefined })).comments).toBe('');
    expect(PostBookBody.safeParse(makeBookBody({ Comments: 'x' })).success).toBe(false);
  });

  const cases: Array<[string, Record<string, unknown>, boolean]> = [
    ['name of 1 char', { name: 'a' }, true],
    ['name of 200 chars', { name: 'a'.repeat(200) }, true],
    ['empty name', { name: '' }, false],
    ['blank name', { name: '   ' }, false],
    ['name of 201 chars', { name: 'a'.repeat(201) }, false],
    ['edition 1', { edition: 1 }, true],
    ['edition 100', { edition: 100 }, true],
    ['edition 0', { edition: 0 }, false],
    ['edition 101', { edition: 101 }, false],
    ['edition 2.5', { edition: 2.5 }, false],
    ['edition as a string', { edition: '3' }, false],
    ['course of 40 chars', { course: 'A'.repeat(40) }, true],
    ['empty course', { course: '' }, false],
    ['course of 41 chars', { course: 'A'.repeat(41) }, false],
    ['course without letters or digits', { course: '--' }, false],
    ['price 0', { price: 0 }, true],
    ['price 10000', { price: 10000 }, true],
    ['price 19.99', { price: 19.99 }, true],
    ['price 0.07', { price: 0.07 }, true],
    ['price -0.01', { price: -0.01 }, false],
    ['price 10000.01', { price: 10000.01 }, false],
    ['price with 3 decimals', { price: 1.005 }, false],
    ['price 0.000000001 (1e-9)', { price: 0.000000001 }, false],
    ['price 19.999999999', { price: 19.999999999 }, false],
    ['price as a string', { price: '10' }, false],
    ['condition new', { condition: 'new' }, true],
    ['condition Like New', { condition: 'Like New' }, true],
    ['condition VERY-GOOD', { condition: 'VERY-GOOD' }, true],
    ['condition acceptable', { condition: 'acceptable' }, true],
    ['condition free text', { condition: 'Highlighted, binding intact' }, false],
    ['empty condition', { condition: '' }, false],
    ['author of 200 chars', { author: 'a'.repeat(200) }, true],
    ['null author', { author: null }, true],
    ['empty author', { author: '' }, false],
    ['author of 201 chars', { author: 'a'.repeat(201) }, false],
    ['comments of 1000 chars', { comments: 'c'.repeat(1000) }, true],
    ['comments of 1001 chars', { comments: 'c'.repeat(1001) }, false],
    ['a valid ISBN-13', { ISBN: '9780262033848' }, true],
    ['a null ISBN', { ISBN: null }, true],
    ['an ISBN with a wrong check digit', { ISBN: '9780262033849' }, false],
    ['an ISBN of 11 digits', { ISBN: '12345678901' }, false],
    ['a status field', { status: 1 }, false],
    ['an owner field', { owner: 'x' }, false],
    ['an id field', { id: 'x' }, false],
    ['a date field', { date: '2020-01-01T00:00:00Z' }, false],
    ['a buyer field', { buyer: 'x' }, false],
  ];
  for (const [name, patch, valid] of cases) {
    it(`${valid ? 'accepts' : 'refuses'} ${name}`, () => {
      const r = PostBookBody.safeParse({ ...makeBookBody(), ...patch });
      expect(r.success).toBe(valid);
      if (!valid) expect(fieldsOf(r).length).toBeGreaterThan(0);
    });
  }

  it('keeps the price in integer cents and the condition as its grade', () => {
    const r = PostBookBody.parse(makeBookBody({ price: 19.99, condition: ' like  new ', author: 'Knuth' }));
    expect(r).toMatchObject({ priceCents: 1999, condition: 'like-new', author: 'Knuth' });
    expect(r).not.toHaveProperty('price');
    expect(PostBookBody.parse(makeBookBody({ price: 0.1 })).priceCents).toBe(10);
  });

  it('names every grade when the condition is none of them', () => {
    const r = PostBookBody.safeParse(makeBookBody({ condition: 'Used' }));
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(
      'Condition must be one of: new, like-new, very-good, good, acceptable.',
    );
  });

  it('refuses a body missing a required field, naming it', () => {
    for (const field of ['name', 'edition', 'course', 'price', 'condition'] as const) {
      const body: Record<string, unknown> = { ...makeBookBody() };
      delete body[field];
      expect(fieldsOf(PostBookBody.safeParse(body)), field).toContain(field);
    }
  });
});

describe('updateBook body', () => {
  it('needs the book id and at least one change', () => {
    expect(UpdateBookBody.safeParse({ bookId: 'b' }).success).toBe(false);
    expect(UpdateBookBody.safeParse({ price: 3 }).success).toBe(false);
    expect(UpdateBookBody.safeParse({ bookId: 'b', price: 3 }).success).toBe(true);
    expect(UpdateBookBody.safeParse({ bookId: 'b', status: 0 }).success).toBe(false);
    expect(UpdateBookBody.safeParse({ bookId: 'b', owner: 'x', name: 'x' }).success).toBe(false);
  });

  it("takes every postBook field, checked and normalised as postBook's", () => {
    const parsed = UpdateBookBody.parse({
      bookId: 'b',
      name: '  Calculus  ',
      edition: 3,
      course: ' MTH 101 ',
      ISBN: '0-262-03384-4',
      author: null,
    });
    expect(parsed).toEqual({
      bookId: 'b',
      name: 'Calculus',
      edition: 3,
      course: 'MTH 101',
      ISBN: '9780262033848',
      author: null,
      priceCents: undefined,
      comments: undefined,
    });
    expect(UpdateBookBody.parse({ bookId: 'b', ISBN: null }).ISBN).toBeNull();
    for (const bad of [
      { name: '' },
      { name: 'x'.repeat(201) },
      { name: 'a\nb' },
      { edition: 0 },
      { edition: 1.5 },
      { edition: 101 },
      { course: '--' },
      { course: 'x'.repeat(41) },
      { ISBN: '0262033845' },
      { edition: null },
      { name: null },
      { course: null },
    ]) {
      expect(UpdateBookBody.safeParse({ bookId: 'b', ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('limit, skip, cursor and query bounds', () => {
  it('accepts limit 1..100 and skip 0..2000 as plain whole numbers', () => {
    expect(NoTokenParams.parse({ limit: '1', skip: '0' })).toEqual({ limit: 1, skip: 0 });
    expect(NoTokenParams.parse({ limit: '100', skip: '2000' })).toEqual({ limit: 100, skip: 2000 });
  });

  it('refuses anything else', () => {
    const bad: Array<[string, string]> = [
      ['0', '0'],
      ['101', '0'],
      ['10', '2001'],
      ['10', '10000'],
      ['-1', '0'],
      ['10', '-1'],
      ['1.5', '0'],
      ['1e1', '0'],
      ['0x10', '0'],
      [' 5', '0'],
      ['abc', '0'],
      ['', '0'],
      ['10', '99999999999'],
    ];
    for (const [limit, skip] of bad)
      expect(NoTokenParams.safeParse({ limit, skip }).success, `${limit}/${skip}`).toBe(false);
  });

  it('bounds the page query and the search query', () => {
    expect(PageQuery.safeParse({ limit: '100' }).success).toBe(true);
    expect(PageQuery.safeParse({ limit: '101' }).success).toBe(false);
    expect(PageQuery.safeParse({ cursor: 'not a cursor' }).success).toBe(false);
    expect(PageQuery.safeParse({ other: '1' }).success).toBe(false);
    expect(SearchParams.safeParse({ query: 'q'.repeat(100) }).success).toBe(true);
    expect(SearchParams.safeParse({ query: 'q'.repeat(101) }).success).toBe(false);
    expect(SearchParams.safeParse({ query: '' }).success).toBe(false);
  });
});
