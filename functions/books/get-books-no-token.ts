import { CampusQuery, NoTokenParams } from '#lib/books/inputs.ts';
import { getBooksNoToken } from '#lib/books/listings.ts';
import { Book } from '#lib/books/schemas.ts';
import { http } from '#lib/http/index.ts';
import * as z from '#lib/zod.ts';

/** GET /api/books/getBooksNoToken/{limit}/{skip}: listed books, newest first, by offset. */
export const handler = http(
  {
    auth: 'none',
    params: NoTokenParams,
    query: CampusQuery,
    response: z.array(Book),
    summary: 'Listed books, newest first, by limit and skip',
  },
  async ({ params, query }) => getBooksNoToken(params.limit, params.skip, query.campus),
);
