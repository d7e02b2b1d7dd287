import { SearchParams, SearchQuery } from '#lib/books/inputs.ts';
import { searchBooks } from '#lib/books/listings.ts';
import { Book } from '#lib/books/schemas.ts';
import { http } from '#lib/http/index.ts';
import * as z from '#lib/zod.ts';

/** GET /api/books/search/{query}: as the public search, without the caller's own books. */
export const handler = http(
  {
    params: SearchParams,
    query: SearchQuery,
    response: z.array(Book),
    paged: true,
    summary: "Search listed books, leaving out the caller's own; best match first",
  },
  async ({ params, query, principal }) => searchBooks(params.query, principal, query),
);
