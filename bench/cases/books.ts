/** Listings, search and posting (functions/books). */
import type { BenchCase } from '../harness/types.ts';
import { listedPage } from './floors.ts';

const PAGE = 40;

const getBooksNoToken: BenchCase = {
  name: 'getBooksNoToken',
  kind: 'read',
  module: 'functions/books/getBooksNoToken.ts',
  status: 200,
  flat: true,
  maxRatio: 1.2,
  floorDescription: `Query gsi1 \`BOOKS#S0\` backwards, Limit ${PAGE} (first page, skip 0)`,
  prepare: async (ctx) => ({
    event: () => ({
      route: '/api/books/getBooksNoToken/{limit}/{skip}',
      pathParameters: { limit: String(PAGE), skip: '0' },
    }),
    floor: async (_i, client) => {
      await listedPage(client, ctx.table, PAGE);
    },
  }),
};

export const bookCases: BenchCase[] = [getBooksNoToken];
