/**
 * The ISBN lookup through the real HTTP server (serverless offline), whose ISBN_LOOKUP_URL is the
 * Open Library stand-in the e2e setup started: every answer is checked against docs/openapi.json
 * by `api()`.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { BAD_ISBN_MESSAGE } from '#lib/books/isbn-lookup.ts';
import { IsbnLookup } from '#lib/books/lookup-schemas.ts';
import { FIXTURE_ISBNS } from '#scripts/local/isbn-fixtures.ts';
import { STANDIN_CALLS_PATH } from '#scripts/local/isbn-standin.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import { api, postBookOverHttp } from '#tests/helpers/e2e.ts';
import { TEXT_EDITION_BOOK } from '#tests/helpers/isbn.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

const sourceCalls = async (isbn13: string): Promise<number> =>
  (
    (await (await fetch(`${inject('isbnStandinUrl')}${STANDIN_CALLS_PATH}`)).json()) as Record<string, number>
  )[isbn13] ?? 0;

let seller: TestUser;

beforeAll(async () => {
  seller = await makeUser({ campus: 'test.edu' });
});

describe('ISBN lookup over HTTP', () => {
  it('fills a Sell form from an ISBN typed with hyphens, then answers the same ISBN from the cache', async () => {
    const before = await sourceCalls(FIXTURE_ISBNS.TEXT_EDITION);
    const first = await api('GET', '/api/books/lookupIsbn/0-262-51087-1', { token: seller.token });
    expect(first.status).toBe(200);
    expect(expectEnvelope(first.body, IsbnLookup)).toEqual({
      isbn13: FIXTURE_ISBNS.TEXT_EDITION,
      source: 'openLibrary',
      book: TEXT_EDITION_BOOK,
      priceHint: null,
    });
    const second = await api('GET', `/api/books/lookupIsbn/${FIXTURE_ISBNS.TEXT_EDITION}`, {
      token: seller.token,
    });
    expect(second.status).toBe(200);
    expect(expectEnvelope(second.body, IsbnLookup)).toMatchObject({ source: 'cache', book: { edition: 2 } });
    expect(await sourceCalls(FIXTURE_ISBNS.TEXT_EDITION)).toBe(before + 1);
  });

  it('refuses a mistyped ISBN with 400 in plain words, and a caller without a token with 401', async () => {
    const bad = await api('GET', '/api/books/lookupIsbn/978-0-262-51087-6', { token: seller.token });
    expect(bad.status).toBe(400);
    expect(expectError(bad.body, 'ISBN_INVALID').error).toBe(BAD_ISBN_MESSAGE);
    expect((await api('GET', `/api/books/lookupIsbn/${FIXTURE_ISBNS.TEXT_EDITION}`)).status).toBe(401);
  });

  it('gives the price hint once three copies were sold, delivered and paid through the routes', async () => {
    const isbn = '9781118230718';
    const [buyer, admin, asker] = await Promise.all([
      makeUser({ campus: 'test.edu' }),
      makeUser({ campus: 'test.edu', permissionType: 1 }),
      makeUser({ campus: 'test.edu' }),
    ]);
    const prices = [24.5, 31, 40.25];
    const books = [];
    for (const price of prices)
      books.push(
        await postBookOverHttp(
          seller.token,
          makeBookBody({ ISBN: isbn, price, name: 'Fundamentals of Physics' }),
        ),
      );
    for (const book of books) {
      expect(
        (await api('POST', '/api/user/addToCart', { token: buyer.token, body: { bookId: book.id } })).status,
      ).toBe(200);
    }
    const checkout = await api('POST', '/api/books/checkoutCart', {
      token: buyer.token,
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(checkout.status).toBe(201);
    // two sales paid: no hint yet
    for (const [i, book] of books.entries()) {
      expect(
        (await api('POST', '/api/dashboard/confirmBook', { token: admin.token, body: { bookId: book.id } }))
          .status,
      ).toBe(200);
      if (i < 2) {
        expect(
          (await api('POST', '/api/dashboard/setBookPaid', { token: admin.token, body: { bookId: book.id } }))
            .status,
        ).toBe(200);
      }
    }
    const hint = async () => {
      const res = await api('GET', `/api/books/lookupIsbn/${isbn}`, { token: asker.token });
      expect(res.status).toBe(200);
      return expectEnvelope(res.body, IsbnLookup).priceHint;
    };
    // the stream consumer counts each paid sale a moment after the write
    await new Promise((r) => setTimeout(r, 3000));
    expect(await hint()).toBeNull();
    const third = books[2] as (typeof books)[number];
    expect(
      (await api('POST', '/api/dashboard/setBookPaid', { token: admin.token, body: { bookId: third.id } }))
        .status,
    ).toBe(200);
    const deadline = Date.now() + 20_000;
    let seen = await hint();
    while (seen === null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      seen = await hint();
    }
    expect(seen).toEqual({ count: 3, lowCents: 2450, highCents: 4025, medianCents: 3100, scope: 'campus' });
  });
});
