/** The author of a book: given on postBook, changed or taken off with updateBook (issue 33, item 3). */
import { describe, expect, it } from 'vitest';
import { Book } from '#lib/books/schemas.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBook, makeBookBody, readBook } from '#tests/helpers/books.ts';
import { expectEnvelope, expectOk } from '#tests/helpers/schema.ts';
import { makeUser } from '#tests/helpers/users.ts';

describe('a book’s author', () => {
  it('is kept from postBook, changed and taken off by updateBook, and shown by getBook', async () => {
    const seller = await makeUser();
    const posted = await booksApi.postBook(seller.token, { ...makeBookBody(), author: 'Donald Knuth' });
    expect(posted.status).toBe(201);
    const book = expectEnvelope(posted.json(), Book);
    expect(book.author).toBe('Donald Knuth');
    expect((await readBook(book.id))?.author).toBe('Donald Knuth');

    const changed = await booksApi.updateBook(seller.token, { bookId: book.id, author: '  Ada Lovelace ' });
    expect(expectOk(changed, Book).author).toBe('Ada Lovelace');
    expect(await readBook(book.id)).toMatchObject({ author: 'Ada Lovelace', priceCents: book.price * 100 });
    expect(expectOk(await booksApi.getBook(book.id), Book).author).toBe('Ada Lovelace');

    const cleared = await booksApi.updateBook(seller.token, { bookId: book.id, author: null });
    expect(expectOk(cleared, Book).author).toBeUndefined();
    expect((await readBook(book.id))?.author).toBeNull();
  });

  it('refuses an author too long or with control characters, and another user’s book, changing nothing', async () => {
    const [seller, other] = await Promise.all([makeUser(), makeUser()]);
    const book = await makeBook(seller, { author: 'Knuth' });
    for (const author of ['x'.repeat(201), 'a\u0007b', '']) {
      expect((await booksApi.updateBook(seller.token, { bookId: book.id, author })).status, author).toBe(400);
    }
    expect((await booksApi.updateBook(other.token, { bookId: book.id, author: 'Someone' })).status).toBe(404);
    expect((await readBook(book.id))?.author).toBe('Knuth');
  });
});
