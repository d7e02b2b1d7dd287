/** getUserMatches (functions/matching/get-user-matches): the caller's matched books. */
import type { BenchCase } from '#bench/harness/types.ts';
import { INDEX, matchesOfUserPk } from '#lib/db/keys.ts';
import { MATCHES_READ_LIMIT } from '#lib/matching/user-matches.ts';
import { authGet, cartEntriesOf, newestFirst } from './floors.ts';

const getUserMatches: BenchCase = {
  name: 'getUserMatches',
  kind: 'read',
  module: 'functions/matching/get-user-matches.ts',
  status: 200,
  flat: true,
  maxRatio: 1.2,
  floorDescription: `auth GetItem; Query gsi2 \`MATCHES#<caller>\` backwards, Limit ${MATCHES_READ_LIMIT} (each match carries its book's list fields); BatchGet of their cart keys`,
  // The reader wants the books of course MTH 161 and any "Calculus" title: the stream processors
  // match every such book seeded afterwards (about 1 in 8 books).
  beforeSeed: async (fixture) => {
    const { requestBook } = await import('#lib/matching/requests.ts');
    const { listRequests } = await import('#lib/db/requests.ts');
    const { applyProcessors } = await import('#bench/harness/fixture.ts');
    const { BENCH_CAMPUS } = await import('#bench/harness/data.ts');
    const reader = { userId: fixture.reader.id, campus: BENCH_CAMPUS };
    await requestBook(reader, { name: 'Calculus', course: 'MTH 161' });
    await requestBook(reader, { name: 'Linear Algebra', course: 'MTH 165' });
    const stored = await listRequests(fixture.reader.id);
    // The stored items (keys included), as the stream would deliver them.
    await applyProcessors(stored as unknown as Record<string, unknown>[]);
  },
  prepare: async (ctx) => {
    const reader = ctx.fixture.reader;
    return {
      event: () => ({ route: '/api/books/getUserMatches', token: reader.token }),
      floor: async (_i, client) => {
        const t = ctx.table;
        await authGet(client, t, reader.id);
        const page = await newestFirst(client, t, {
          index: INDEX.gsi2,
          pk: matchesOfUserPk(reader.id),
          limit: MATCHES_READ_LIMIT,
        });
        const ids = [...new Set((page.Items ?? []).map((m) => String(m.bookId)))];
        if (ids.length === 0) return;
        await cartEntriesOf(client, t, reader.id, ids);
      },
    };
  },
};

export const matchingCases: BenchCase[] = [getUserMatches];
