/** Listings, search and posting (functions/books). */

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BENCH_CAMPUS, CATALOGUE, courseNorm, inTurn } from '#bench/harness/data.ts';
import type { BenchCase } from '#bench/harness/types.ts';
import { planSearch } from '#lib/books/search-terms.ts';
import { insertBookItems, listedBooksAt } from '#lib/db/books.ts';
import { ALL_CAMPUSES, searchTermPk, userKey } from '#lib/db/keys.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { GetCommand, TransactWriteCommand } from '#lib/table/commands.ts';
import { authGet, cartEntriesOf, listedPage, newestFirst } from './floors.ts';

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
 * The raw reads of one search page for `query`: a Query of each index term of the query, Limit
 * ${PAGE}+1, newest first (the entries carry the books' list fields: no BatchGet of books), the
 * caller's own books filtered out; with a caller, one BatchGet of the page's cart keys (inCart).
 */
async function searchFloor(client: DynamoDBDocumentClient, table: string, query: string, callerId?: string) {
  // a reader searches their campus by default; anonymous search, every campus
  const campus = callerId ? BENCH_CAMPUS : 'all';
  const plan = planSearch(query);
  if (!plan) throw new Error(`search query "${query}" has no plan`);
  const pages = await Promise.all(
    plan.terms.map((t) =>
      newestFirst(client, table, {
        pk: searchTermPk(t, campus),
        limit: PAGE + 1,
        excludeOwner: callerId,
        listing: true,
      }),
    ),
  );
  const entries = pages.flatMap((p) => (p.Items ?? []) as BookRecord[]).filter((b) => plan.matches(b));
  const ids = [...new Set(entries.map((b) => b.id))].slice(0, PAGE);
  // With a caller, the page's books carry `inCart`: one BatchGet of their cart keys.
  if (callerId && ids.length > 0) await cartEntriesOf(client, table, callerId, ids);
}

const search: BenchCase = {
  name: 'search',
  kind: 'read',
  module: 'functions/books/search.ts',
  status: 200,
  flat: true,
  maxRatio: 1.2,
  floorDescription: `auth GetItem (consistent); Query of the query's index term in the caller's campus (\`SEARCH#C#<campus>#T#calculus\`) backwards, Limit ${PAGE}+1, filter not hidden and ownerId <> caller (the entries carry the books' list fields); BatchGet of the page's cart keys (inCart)`,
  prepare: async (ctx) => {
    const reader = ctx.fixture.reader;
    const q = ctx.fixture.searchQuery;
    return {
      event: () => ({
        route: '/api/books/search/{query}',
        pathParameters: { query: q },
        token: reader.token,
      }),
      floor: async (_i, client) => {
        await authGet(client, ctx.table, reader.id);
        await searchFloor(client, ctx.table, q, reader.id);
      },
    };
  },
};

const searchPublic: BenchCase = {
  name: 'searchPublic',
  kind: 'read',
  module: 'functions/books/search-public.ts',
  status: 200,
  flat: true,
  maxRatio: 1.2,
  floorDescription: `Query of the query's index term of every campus (\`SEARCH#T#calculus\`) backwards, Limit ${PAGE}+1, filter not hidden (the entries carry the books' list fields)`,
  prepare: async (ctx) => {
    const q = ctx.fixture.searchQuery;
    return {
      event: () => ({ route: '/api/books/search/public/{query}', pathParameters: { query: q } }),
      floor: async (_i, client) => {
        await searchFloor(client, ctx.table, q);
      },
    };
  },
};

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
  postBook,
];
