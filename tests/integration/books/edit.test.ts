/**
 * A seller edits every field of an unsold book (issue 32, item 4): updateBook takes name, edition,
 * course and ISBN too, checked as postBook checks them, and everything derived from them (the
 * search index, the matches of requests) follows from the stream, also when a record is delivered
 * twice.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Book } from '#lib/books/schemas.ts';
import { courseTerm, searchTermPk } from '#lib/db/keys.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBook, makeBookBody, readBook, setBookStatus } from '#tests/helpers/books.ts';
import { createRequest, userMatches } from '#tests/helpers/matching.ts';
import { queryPartition } from '#tests/helpers/query.ts';
import { expectEnvelope, expectError, expectOk } from '#tests/helpers/schema.ts';
import { consumeNew, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

const Books = z.array(Book);
const reader = new StreamReader();
/** Runs the stream consumer over everything written since the last run, `deliveries` times. */
const consumeAll = (deliveries = 1) => consumeNew(reader, '', deliveries);

const found = async (query: string): Promise<string[]> => {
  const res = await booksApi.searchPublic(query);
  expect(res.status).toBe(200);
  return expectEnvelope(res.json(), Books).map((b) => b.id);
};

let seller: TestUser;
beforeAll(async () => {
  seller = await makeUser();
});

async function post(overrides: Parameters<typeof makeBookBody>[0]) {
  const res = await booksApi.postBook(seller.token, makeBookBody(overrides));
  expect(res.status).toBe(201);
  return expectEnvelope(res.json(), Book);
}

describe('updateBook: every field', () => {
  it('changes title, edition, course and ISBN (200, stored); search finds the new ones and not the old, after a redelivery too', async () => {
    const book = await post({
      name: 'Quixotic Thermodynamics',
      edition: 2,
      course: 'QXT 101',
      ISBN: '978-0-306-40615-7',
      author: 'Wilhelmina Farquhar',
    });
    await consumeAll();
    for (const q of ['quixotic', 'QXT 101', '9780306406157']) expect(await found(q), q).toEqual([book.id]);

    const res = await booksApi.updateBook(seller.token, {
      bookId: book.id,
      name: '  Zephyrean Optics ',
      edition: 5,
      course: 'zph-202',
      ISBN: '0-262-03384-4',
    });
    expect(expectOk(res, Book)).toMatchObject({
      id: book.id,
      name: 'Zephyrean Optics',
      edition: 5,
      course: 'zph-202',
      ISBN: '9780262033848',
      author: 'Wilhelmina Farquhar',
      price: book.price,
      status: 0,
      date: book.date,
    });
    expect(await readBook(book.id)).toMatchObject({
      name: 'Zephyrean Optics',
      edition: 5,
      course: 'zph-202',
      courseNorm: 'ZPH202',
      ISBN: '9780262033848',
      author: 'Wilhelmina Farquhar',
      status: 0,
    });

    // at-least-once delivery: the same records twice change nothing more
    await consumeAll(2);
    for (const q of ['zephyrean optics', 'ZPH 202', 'ZPH', '9780262033848', '0262033844', 'farquhar']) {
      expect(await found(q), q).toEqual([book.id]);
    }
    for (const q of ['quixotic', 'thermodynamics', 'QXT 101', 'QXT', '9780306406157']) {
      expect(await found(q), q).toEqual([]);
    }
    // the old terms' entries are gone, not merely filtered out
    expect(await queryPartition(searchTermPk(courseTerm('QXT101')))).toEqual([]);
    expect((await queryPartition(searchTermPk(courseTerm('ZPH202')))).map((e) => e.bookId)).toContain(
      book.id,
    );
  });

  it('takes the ISBN off with null and keeps every other field; a changed ISBN takes the looked-up cover off', async () => {
    const cover = 'https://covers.openlibrary.org/b/isbn/9780262033848-L.jpg';
    const covered = await booksApi.postBook(seller.token, {
      ...makeBookBody({ name: 'Covered Almanac', ISBN: '0262033844' }),
      coverUrl: cover,
    });
    const coveredBook = expectEnvelope(covered.json(), Book);
    // a change of anything but the ISBN keeps the cover; a new ISBN takes it off (it was the old one's)
    expect(
      expectOk(await booksApi.updateBook(seller.token, { bookId: coveredBook.id, edition: 4 }), Book),
    ).toMatchObject({ coverUrl: cover });
    const reIsbn = await booksApi.updateBook(seller.token, {
      bookId: coveredBook.id,
      ISBN: '978-0-306-40615-7',
    });
    expect(expectOk(reIsbn, Book).coverUrl).toBeUndefined();
    expect(await readBook(coveredBook.id)).toMatchObject({
      coverUrl: null,
      ISBN: '9780306406157',
      edition: 4,
    });

    const book = await post({ name: 'Isbnless Almanac', ISBN: '0262033844' });
    await consumeAll();
    expect(await found('9780262033848')).toContain(book.id);
    const res = await booksApi.updateBook(seller.token, { bookId: book.id, ISBN: null });
    expect(expectOk(res, Book)).toMatchObject({ ISBN: null, name: 'Isbnless Almanac' });
    expect(await readBook(book.id)).toMatchObject({ ISBN: null, name: 'Isbnless Almanac', edition: 3 });
    await consumeAll();
    expect(await found('9780262033848')).not.toContain(book.id);
    expect(await found('isbnless')).toEqual([book.id]);
  });

  it("moves the book's matches: a request for the old course loses it, one for the new course gets it", async () => {
    const buyer = await makeUser();
    const book = await post({ name: 'Kaleidoscopic Geodesy', course: 'KGD 310' });
    await createRequest(buyer.token, { name: 'Unrelated Wanted Title', course: 'KGD 310' });
    await consumeAll();
    expect((await userMatches(buyer.token)).map((m) => m.id)).toEqual([book.id]);

    const res = await booksApi.updateBook(seller.token, { bookId: book.id, course: 'LMN 411' });
    expect(res.status).toBe(200);
    await consumeAll(2);
    expect(await userMatches(buyer.token)).toEqual([]);

    const other = await makeUser();
    await createRequest(other.token, { name: 'Another Unrelated Title', course: 'LMN-411' });
    await consumeAll();
    expect((await userMatches(other.token)).map((m) => m.id)).toEqual([book.id]);
  });

  it('refuses bad values with 400 on the field, changing nothing', async () => {
    const book = await makeBook(seller);
    const before = await readBook(book.id);
    const bad: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ name: 'two\nlines' }, 'name'],
      [{ name: null }, 'name'],
      [{ edition: 0 }, 'edition'],
      [{ edition: 2.5 }, 'edition'],
      [{ edition: '3' }, 'edition'],
      [{ course: '--' }, 'course'],
      [{ course: 'x'.repeat(41) }, 'course'],
      [{ ISBN: '0262033845' }, 'ISBN'],
      [{ ISBN: 12 }, 'ISBN'],
      // one bad field refuses the good ones sent with it
      [{ name: 'A Good Title', edition: 101 }, 'edition'],
    ];
    for (const [fields, field] of bad) {
      const res = await booksApi.updateBook(seller.token, { bookId: book.id, ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      const error = expectError(res.json(), 'VALIDATION_FAILED');
      expect(
        error.details?.map((d) => d.field),
        JSON.stringify(fields),
      ).toContain(field);
    }
    expect(await readBook(book.id)).toEqual(before);
  });

  it("answers 404 for someone else's book and 409 for a sold one, changing nothing", async () => {
    const other = await makeUser();
    const book = await makeBook(seller);
    const refused = await booksApi.updateBook(other.token, { bookId: book.id, name: 'Stolen Title' });
    expect(refused.status).toBe(404);
    expectError(refused.json(), 'BOOK_NOT_FOUND');
    expect(await readBook(book.id)).toMatchObject({ name: book.name });

    const sold = await setBookStatus(book, 1, { buyerId: other.id, boughtAt: new Date().toISOString() });
    const before = await readBook(sold.id);
    for (const fields of [{ name: 'Renamed After Sale' }, { course: 'NEW 100' }, { ISBN: '0262033844' }]) {
      const res = await booksApi.updateBook(seller.token, { bookId: book.id, ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(409);
      expectError(res.json(), 'INVALID_STATUS');
    }
    expect(await readBook(book.id)).toEqual(before);
  });
});
