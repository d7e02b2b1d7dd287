/**
 * The ISBN lookup through the real HTTP server (serverless offline), whose ISBN_LOOKUP_URL is the
 * Open Library stand-in the e2e setup started: every answer is checked against docs/openapi.json
 * by `api()`.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { BAD_ISBN_MESSAGE } from '#lib/books/isbn-lookup.ts';
import { IsbnLookup } from '#lib/books/lookup-schemas.ts';
import { FIXTURE_ISBNS } from '#scripts/local/isbn-fixtures.ts';
import { STANDIN_CALLS_PATH } from '#scripts/local/isbn-standin.ts';
import { api } from '#tests/helpers/e2e.ts';
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
      book: {
        title: 'Structure and Interpretation of Computer Programs',
        authors: ['Harold Abelson', 'Gerald Jay Sussman', 'Julie Sussman'],
        edition: 2,
        publisher: 'MIT Press',
        year: 1996,
        coverUrl: 'https://covers.openlibrary.org/b/isbn/9780262510875-L.jpg',
      },
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
});
