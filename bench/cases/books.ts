/** Listings, search and posting (functions/books). */

import { BENCH_CAMPUS, CATALOGUE, courseNorm, inTurn } from '#bench/harness/data.ts';
import type { BenchCase } from '#bench/harness/types.ts';
import { insertBookItems, listedBooksAt } from '#lib/db/books.ts';
import { ALL_CAMPUSES, userKey } from '#lib/db/keys.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { GetCommand, TransactWriteCommand } from '#lib/table/commands.ts';
import { authGet, cartEntriesOf, listedPage } from './floors.ts';

const PAGE = 40;

/**
 * An offset page of every campus: the keys-only index of the 8 shards for the page's positions,
 * then the page's key range on the 8 shards. The floor is the same repository function as it is
 * (the merge between the two rounds is the work itself), without the handler around it.
 */
const offsetPage = (
  name: string,
  skipOf: (size: number) => number,
  description: string,
  flat: boolean,
): BenchCase => ({
  name,
  kind: 'read',
  module: 'functions/books/get-books-no-token.ts',
  status: 200,
  flat,
  maxRatio: 1.2,
  floorDescription: description,
  prepare: async (ctx) => {
    const skip = skipOf(ctx.size);
    return {
      event: () => ({
        route: '/api/books/getBooksNoToken/{limit}/{skip}',
        pathParameters: { limit: String(PAGE), skip: String(skip) },
      }),
      floor: async () => {
        await listedBooksAt(ALL_CAMPUSES, skip, PAGE);
      },
      check: (_status, body) => {
        const books = (JSON.parse(body) as { data?: unknown[] }).data ?? [];
        if (books.length !== PAGE)
          throw new Error(`${name}: ${books.length} books at skip ${skip} of ${ctx.size}`);
      },
    };
  },
});

/** The deepest offset the contract allows (2,000), or a page well inside a smaller table. */
export const DEEP_SKIP = 2_000;

const getBooksNoToken = offsetPage(
  'getBooksNoToken',
  () => 0,
  `Query each of the 8 shards of gsi1keys \`BOOKS#S0#<n>\` backwards (keys only, Limit 32), then the page's gsi1sk range on each of the 8 shards of gsi1 (campus all, skip 0, limit ${PAGE})`,
  true,
);

const getBooksNoTokenDeep = offsetPage(
  'getBooksNoToken deep skip',
  (size) => Math.max(0, Math.min(DEEP_SKIP, size - 2 * PAGE)),
  `skip min(${DEEP_SKIP.toLocaleString('en-US')}, books - ${2 * PAGE}): Query each of the 8 shards of gsi1keys backwards (keys only, its share of skip + ${PAGE} plus two standard deviations, rounded up to fill the 4 KB blocks it is charged for; a second round for a shard that ran short), then the page's gsi1sk range on each of the 8 shards of gsi1`,
  // the skip grows with the table up to 2,000 (and a second round depends on the shards' spread)
  false,
);

const getAllBooks: BenchCase = {
  name: 'getAllBooks',
  kind: 'read',
  module: 'functions/books/get-all-books.ts',
  status: 200,
  flat: true,
  maxRatio: 1.2,
  floorDescription: `auth GetItem; Query gsi4 \`CAMPUS#<campus>#S0#0\` backwards, Limit ${PAGE}+1, filter not hidden and ownerId <> caller; BatchGet of the page's cart keys`,
  prepare: async (ctx) => {
    const reader = ctx.fixture.reader;
    return {
      event: () => ({ route: '/api/books/getAllBooks', token: reader.token }),
      floor: async (_i, client) => {
        await authGet(client, ctx.table, reader.id);
        const items = await listedPage(client, ctx.table, PAGE, BENCH_CAMPUS, reader.id);
        const ids = items.slice(0, PAGE).map((b) => String(b.id));
        await cartEntriesOf(client, ctx.table, reader.id, ids);
      },
    };
  },
};

/**
 * Search by relevance (the default order, issue 33): the query's tiers in rank order (ISBN, exact
 * course, all title words, author, department or number, typo corrections), each read like a
 * search page (one Query per index term, newest first, Limit page + 1, the entries carrying the
 * books' list fields) until the page is full; the typo tier first reads which indexed words lie
 * one edit away (one BatchGetItem of `TYPO#` items). The floor is the domain's own search
 * (lib/books/listings.ts `searchBooks`: those reads, the cart keys of a signed-in caller's page)
 * without the handler around it, as the deep skip's floor is its repository function: the tiers'
 * walk is the work itself, so the ratio says what the HTTP layer (token check, validation,
 * envelope) adds.
 */
const searchCase = (
  name: string,
  query: (ctx: { fixture: { searchQuery: string } }) => string,
  what: string,
  signedIn: boolean,
): BenchCase => ({
  name,
  kind: 'read',
  module: signedIn ? 'functions/books/search.ts' : 'functions/books/search-public.ts',
  status: 200,
  flat: true,
  maxRatio: 1.2,
  floorDescription: signedIn
    ? `auth GetItem (consistent); searchBooks("${what}") for the caller's campus by relevance: one Query per index term of each tier reached (\`SEARCH#C#<campus>#...\`, Limit ${PAGE}+1, not hidden, not the caller's), a BatchGetItem of \`TYPO#\` words when the typo tier is reached; BatchGet of the page's cart keys`
    : `searchBooks("${what}") of every campus by relevance: one Query per index term of each tier reached (\`SEARCH#T#...\` on the table, \`SEARCHP#\` on gsi4, Limit ${PAGE}+1, not hidden), a BatchGetItem of \`TYPO#\` words when the typo tier is reached`,
  prepare: async (ctx) => {
    const { searchBooks } = await import('#lib/books/listings.ts');
    const reader = ctx.fixture.reader;
    const q = query(ctx);
    const browser = signedIn ? { userId: reader.id, campus: BENCH_CAMPUS } : null;
    return {
      event: () =>
        signedIn
          ? { route: '/api/books/search/{query}', pathParameters: { query: q }, token: reader.token }
          : { route: '/api/books/search/public/{query}', pathParameters: { query: q } },
      floor: async (_i, client) => {
        if (signedIn) await authGet(client, ctx.table, reader.id);
        await searchBooks(q, browser, {});
      },
      check: (_status, body) => {
        const books = (JSON.parse(body) as { data?: unknown[] }).data ?? [];
        if (books.length === 0) throw new Error(`${name}: "${q}" found nothing`);
      },
    };
  },
});

const search = searchCase('search', (ctx) => ctx.fixture.searchQuery, 'calculus', true);
const searchPublic = searchCase('searchPublic', (ctx) => ctx.fixture.searchQuery, 'calculus', false);
/** the kinds of query issue 33 added: a department alone, a course number alone, a course, a typo */
const searchKinds = [
  searchCase('search department', () => 'MTH', 'MTH', true),
  searchCase('search course number', () => '161', '161', true),
  searchCase('search course', () => 'mth161', 'mth161', true),
  searchCase('search typo', () => 'algoritms', 'algoritms', true),
];

const postBook: BenchCase = {
  name: 'postBook',
  kind: 'write',
  module: 'functions/books/post-book.ts',
  status: 201,
  floorDescription:
    "auth GetItem; GetItem of the poster's first name; TransactWriteItems: Put of the book (condition: new) + ADD to the global and the poster's counters",
  prepare: async (ctx) => {
    const posterOf = inTurn(ctx.fixture.users.slice(1)); // every user but the reader
    const entryOf = inTurn(CATALOGUE);
    return {
      // Every post (endpoint and floor) lists one more book: the next top-up counts it.
      check: () => {
        ctx.fixture.listedCount++;
      },
      event: (i) => {
        const entry = entryOf(i);
        return {
          method: 'POST',
          route: '/api/books/postBook',
          token: posterOf(i).token,
          body: {
            name: entry.name,
            edition: 1 + (i % 9),
            course: entry.course,
            price: 10 + (i % 90) + 0.5,
            condition: 'Good',
            comments: 'Posted by the benchmark.',
            ISBN: '9780134689562',
          },
        };
      },
      floor: async (i, client) => {
        const poster = posterOf(i);
        const entry = entryOf(i);
        await authGet(client, ctx.table, poster.id);
        const user = await client.send(
          new GetCommand({
            TableName: ctx.table,
            Key: userKey(poster.id),
            ProjectionExpression: 'firstName',
          }),
        );
        const book: BookRecord = {
          type: 'book',
          id: `F${Date.now().toString(36)}${i}`,
          name: entry.name,
          edition: 1 + (i % 9),
          course: entry.course,
          courseNorm: courseNorm(entry.course),
          priceCents: (10 + (i % 90)) * 100 + 50,
          condition: 'good',
          comments: 'Posted by the benchmark.',
          ISBN: '9780134689562',
          status: 0,
          date: new Date().toISOString(),
          ownerId: poster.id,
          ownerFirstName: String(user.Item?.firstName),
          campus: BENCH_CAMPUS,
        };
        // The same transaction items the endpoint writes (book and counters), not a hand copy.
        await client.send(new TransactWriteCommand({ TransactItems: insertBookItems(book) }));
        ctx.fixture.listedCount++;
      },
    };
  },
};

export const bookCases: BenchCase[] = [
  getBooksNoToken,
  getBooksNoTokenDeep,
  getAllBooks,
  search,
  searchPublic,
  ...searchKinds,
  postBook,
];
