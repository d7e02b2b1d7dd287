/**
 * lookupIsbn from the cache (functions/books/lookup-isbn; issue 33): the ISBN of the stand-in's
 * first textbook, looked up once before timing, so every timed call is a cache hit.
 */

import { BENCH_CAMPUS } from '#bench/harness/data.ts';
import type { SeedUser } from '#bench/harness/fixture.ts';
import type { BenchCase } from '#bench/harness/types.ts';
import { ISBN_LOOKUP_LIMIT, lookupIsbn } from '#lib/books/isbn-lookup.ts';
import { priceHintFor } from '#lib/books/price-hint.ts';
import { getCachedLookup } from '#lib/db/isbn-lookups.ts';
import { allowanceFloor, authGet } from './floors.ts';

const ISBN = '9780262033848';

const lookupIsbnCached: BenchCase = {
  name: 'lookupIsbn',
  kind: 'read',
  module: 'functions/books/lookup-isbn.ts',
  status: 200,
  flat: true,
  maxRatio: 1.2,
  floorDescription:
    'auth GetItem; the hourly allowance: GetItem of the previous window, conditional ADD on the current one; GetItem of the cached lookup `ISBN#<isbn13>`; the price hint: one GetItem of `SALEPRICES#<isbn13>` (the campus and every-campus sales in one item)',
  prepare: async (ctx) => {
    const users = ctx.fixture.users;
    // 60 lookups an hour a user: the calls take turns over every user
    const userOf = (i: number) => users[i % users.length] as SeedUser;
    const first = users[0] as SeedUser;
    const warmed = await lookupIsbn({ userId: first.id, campus: BENCH_CAMPUS }, ISBN);
    if (!warmed.book) throw new Error('lookupIsbn: the stand-in does not know the bench ISBN');
    return {
      event: (i) => ({
        route: '/api/books/lookupIsbn/{isbn}',
        token: userOf(i).token,
        pathParameters: { isbn: ISBN },
      }),
      floor: async (i, client) => {
        const user = userOf(i);
        const now = new Date();
        await authGet(client, ctx.table, user.id);
        await allowanceFloor(ISBN_LOOKUP_LIMIT, user.id, now);
        await Promise.all([getCachedLookup(ISBN, now), priceHintFor(ISBN, BENCH_CAMPUS)]);
      },
      check: (_status, body) => {
        const source = (JSON.parse(body) as { data?: { source?: string } }).data?.source;
        if (source !== 'cache') throw new Error(`lookupIsbn: answered from ${source}, expected the cache`);
      },
    };
  },
};

export const lookupCases: BenchCase[] = [lookupIsbnCached];
