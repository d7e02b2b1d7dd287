import { describe, expect, it } from 'vitest';
import { MAX_LISTED_BOOKS } from '#lib/db/books.ts';
import { userStatsKey } from '#lib/db/keys.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBook, makeBookBody, readBook } from '#tests/helpers/books.ts';
import { readUserStats } from '#tests/helpers/cart.ts';
import { expectError } from '#tests/helpers/schema.ts';
import { setStored } from '#tests/helpers/stored.ts';
import { makeUser } from '#tests/helpers/users.ts';

/** The owner already has `n` listed books, as the counter that postBook and friends move says. */
const setListed = (userId: string, n: number) =>
  setStored(userStatsKey(userId), { activeListings: n, type: 'userStats' });

const listedCount = async (userId: string) => Number((await readUserStats(userId))?.activeListings);
const postsOf = async (token: string) =>
  (await booksApi.getUsersPosts(token)).json<{ data: unknown[] }>().data;

describe(`at most ${MAX_LISTED_BOOKS} listed books per user`, () => {
  it('refuses the 201st listed book with 409 LISTING_LIMIT and stores nothing', async () => {
    const seller = await makeUser();
    await setListed(seller.id, MAX_LISTED_BOOKS - 1);
    expect((await booksApi.postBook(seller.token, makeBookBody())).status).toBe(201);
    expect(await listedCount(seller.id)).toBe(MAX_LISTED_BOOKS);

    const res = await booksApi.postBook(seller.token, makeBookBody({ name: 'One too many' }));
    expect(res.status).toBe(409);
    expect(expectError(res.json(), 'LISTING_LIMIT').error).toContain(String(MAX_LISTED_BOOKS));
    expect(await listedCount(seller.id)).toBe(MAX_LISTED_BOOKS);
    expect(await postsOf(seller.token)).toHaveLength(1);
  });

  it('refuses to re-list an unlisted book at the cap with 409, leaving it unlisted', async () => {
    const seller = await makeUser();
    const unlisted = await makeBook(seller, { status: 5 });
    await setListed(seller.id, MAX_LISTED_BOOKS);
    const res = await booksApi.reactivateBook(seller.token, { bookId: unlisted.id });
    expect(res.status).toBe(409);
    expectError(res.json(), 'LISTING_LIMIT');
    expect(await readBook(unlisted.id)).toMatchObject({ status: 5 });
  });

  it('lets only as many concurrent listings through as the cap has room for', async () => {
    const seller = await makeUser();
    await setListed(seller.id, MAX_LISTED_BOOKS - 3);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        booksApi.postBook(seller.token, makeBookBody({ name: `Book ${i}` })),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
    expect(await listedCount(seller.id)).toBe(MAX_LISTED_BOOKS);
    expect(await postsOf(seller.token)).toHaveLength(3);
  });
});
