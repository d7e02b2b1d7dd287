import { BrowseQuery } from '#lib/books/inputs.ts';
import { getAllBooks } from '#lib/books/listings.ts';
import { Book } from '#lib/books/schemas.ts';
import { http } from '#lib/http/index.ts';
import * as z from '#lib/zod.ts';

/** GET /api/books/getAllBooks: listed books, newest first; with a token, not the caller's, with `inCart`. */
export const handler = http(
  {
    auth: 'optional',
    query: BrowseQuery,
    response: z.array(Book),
    paged: true,
    summary: "Listed books of a campus (default: the caller's; anonymous: all), filtered, by cursor",
  },
  async ({ query, principal }) => getAllBooks(principal, query),
);
