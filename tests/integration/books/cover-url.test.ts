/**
 * The looked-up cover kept with a book (issue 33, item 2): postBook takes only an Open Library
 * cover image URL (lib/books/cover-url.ts), stores it on the book, and every list of books answers
 * it beside the photos; updateBook takes it off. Anything else is a 400 and nothing is stored.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { COVER_URL_MESSAGE } from '#lib/books/cover-url.ts';
import { Book } from '#lib/books/schemas.ts';
import { searchTermPk, titleTerm } from '#lib/db/keys.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBookBody, readBook } from '#tests/helpers/books.ts';
import { queryPartition } from '#tests/helpers/query.ts';
import { expectEnvelope, expectOk, expectRefusal } from '#tests/helpers/schema.ts';
import { consumeNew, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

const Books = z.array(Book);
const reader = new StreamReader();
const COVER = 'https://covers.openlibrary.org/b/isbn/9780262510875-L.jpg';

let seller: TestUser;
let buyer: TestUser;

beforeAll(async () => {
  [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
});

describe('a book’s cover URL', () => {
  it('is stored from postBook and answered by getBook, the listing, the seller’s posts and search, until updateBook takes it off', async () => {
    const posted = await booksApi.postBook(
      seller.token,
      makeBookBody({ name: 'Structure and Interpretation Covered', coverUrl: COVER }),
    );
    expect(posted.status).toBe(201);
    const book = expectEnvelope(posted.json(), Book);
    expect(book).toMatchObject({ coverUrl: COVER, photos: [] });
    expect((await readBook(book.id))?.coverUrl).toBe(COVER);

    expect(expectOk(await booksApi.getBook(book.id), Book).coverUrl).toBe(COVER);
    const listed = expectOk(await booksApi.getAllBooks(buyer.token), Books);
    expect(listed.find((b) => b.id === book.id)?.coverUrl).toBe(COVER);
    const own = expectOk(await booksApi.getUsersPosts(seller.token), Books);
    expect(own.find((b) => b.id === book.id)?.coverUrl).toBe(COVER);

    // search answers from the entries the stream consumer keeps: the cover is copied onto them
    await consumeNew(reader, 'BOOK#');
    const entries = await queryPartition(searchTermPk(titleTerm('cove')));
    expect(entries.filter((e) => e.id === book.id).map((e) => e.coverUrl)).toEqual([COVER]);
    const found = expectOk(await booksApi.search(buyer.token, 'covered'), Books);
    expect(found.map((b) => [b.id, b.coverUrl])).toEqual([[book.id, COVER]]);

    // taken off: no cover in the answers, null stored, and the search entry rewritten
    const cleared = expectOk(
      await booksApi.updateBook(seller.token, { bookId: book.id, coverUrl: null }),
      Book,
    );
    expect(cleared.coverUrl).toBeUndefined();
    expect((await readBook(book.id))?.coverUrl).toBeNull();
    expect(expectOk(await booksApi.getBook(book.id), Book).coverUrl).toBeUndefined();
    await consumeNew(reader, 'BOOK#');
    expect(expectOk(await booksApi.search(buyer.token, 'covered'), Books)[0]?.coverUrl).toBeUndefined();
  });

  it('is optional: a book posted without one has none', async () => {
    const book = expectEnvelope((await booksApi.postBook(seller.token, makeBookBody())).json(), Book);
    expect(book.coverUrl).toBeUndefined();
    expect((await readBook(book.id))?.coverUrl).toBeUndefined();
    const withNull = await booksApi.postBook(seller.token, makeBookBody({ coverUrl: null }));
    expect(withNull.status).toBe(201);
    expect(expectEnvelope(withNull.json(), Book).coverUrl).toBeUndefined();
  });

  it('refuses any URL but an https Open Library cover image, with a plain message, storing nothing', async () => {
    const lister = await makeUser();
    const refused = [
      'https://evil.example/b/isbn/9780262510875-L.jpg',
      'http://covers.openlibrary.org/b/isbn/9780262510875-L.jpg',
      'javascript:alert(1)',
      'data:image/png;base64,iVBORw0KGgo=',
      `https://covers.openlibrary.org/b/isbn/${'9'.repeat(300)}-L.jpg`,
      'https://covers.openlibrary.org.evil.example/b/isbn/9780262510875-L.jpg',
      'https://covers.openlibrary.org@evil.example/b/isbn/9780262510875-L.jpg',
      'https://covers.openlibrary.org:8443/b/isbn/9780262510875-L.jpg',
      'https://covers.openlibrary.org/b/isbn/9780262510875-L.jpg?x=1',
      'https://covers.openlibrary.org/b/isbn/9780262510875-L.jpg#x',
      'https://covers.openlibrary.org/b/isbn/../../a-L.jpg',
      'https://covers.openlibrary.org/b/isbn/9780262510875-L.svg',
      'https://covers.openlibrary.org/w/id/1-L.jpg',
      '//covers.openlibrary.org/b/id/1-L.jpg',
      ` ${COVER}`,
      '',
    ];
    for (const coverUrl of refused) {
      const res = await booksApi.postBook(lister.token, makeBookBody({ coverUrl }));
      const error = expectRefusal(res, 400, 'VALIDATION_FAILED');
      expect(error.details, coverUrl).toContainEqual(
        expect.objectContaining({ field: 'coverUrl', message: COVER_URL_MESSAGE }),
      );
    }
    expect(
      expectRefusal(
        await booksApi.postBook(lister.token, { ...makeBookBody(), coverUrl: 42 }),
        400,
        'VALIDATION_FAILED',
      ).details,
    ).toContainEqual(expect.objectContaining({ field: 'coverUrl' }));
    // updateBook takes a cover off, never puts one on
    const book = expectEnvelope((await booksApi.postBook(lister.token, makeBookBody())).json(), Book);
    expectRefusal(
      await booksApi.updateBook(lister.token, { bookId: book.id, coverUrl: COVER }),
      400,
      'VALIDATION_FAILED',
    );
    expect(
      expectOk(await booksApi.getUsersPosts(lister.token), Books).map((b) => [b.id, b.coverUrl]),
    ).toEqual([[book.id, undefined]]);
    expect((await readBook(book.id))?.coverUrl).toBeUndefined();
  });
});
