import { PageQuery } from '#lib/books/inputs.ts';
import { getUsersPosts } from '#lib/books/listings.ts';
import { Book } from '#lib/books/schemas.ts';
import { callerPage } from '#lib/http/caller-page.ts';

/** GET /api/books/getUsersPosts: the caller's books with status 0 or 5, newest first, by cursor. */
export const handler = callerPage(
  {
    query: PageQuery,
    item: Book,
    summary: "The caller's listed and unlisted books, newest first, by cursor",
  },
  getUsersPosts,
);
