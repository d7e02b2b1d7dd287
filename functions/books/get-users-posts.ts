import { PageQuery } from '#lib/books/inputs.ts';
import { getUsersPosts } from '#lib/books/listings.ts';
import { Book } from '#lib/books/schemas.ts';
import { http } from '#lib/http/index.ts';
import * as z from '#lib/zod.ts';

/** GET /api/books/getUsersPosts: the caller's books with status 0 or 5, newest first, by cursor. */
export const handler = http(
  {
    query: PageQuery,
    response: z.array(Book),
    paged: true,
    summary: "The caller's listed and unlisted books, newest first, by cursor",
  },
  async ({ query, principal }) => getUsersPosts(principal.userId, query),
);
