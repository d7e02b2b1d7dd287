import { z } from 'zod';
import { getUsersPosts } from '#lib/books/listings.ts';
import { Book } from '#lib/books/schemas.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/books/getUsersPosts: the caller's books with status 0 or 5, newest first. */
export const handler = http(
  { auth: 'required', response: z.array(Book), summary: "The caller's listed and unlisted books" },
  async ({ principal }) => getUsersPosts(principal.userId),
);
