import { SearchParams, SearchQuery } from '#lib/books/inputs.ts';
import { searchBooks } from '#lib/books/listings.ts';
import { Book } from '#lib/books/schemas.ts';
import { http } from '#lib/http/index.ts';
import * as z from '#lib/zod.ts';

/** GET /api/books/search/public/{query}: listed books matching the query, best match first (sort=relevance). */
export const handler = http(
  {
    auth: 'none',
    params: SearchParams,
    query: SearchQuery,
    response: z.array(Book),
    paged: true,
    summary:
      'Search listed books by title or author words (one typo allowed), course, department, course number or ISBN; best match first',
  },
  async ({ params, query }) => searchBooks(params.query, null, query),
);
