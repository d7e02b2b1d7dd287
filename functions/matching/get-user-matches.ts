import { http } from '#lib/http/index.ts';
import { getUserMatches, MatchedBook } from '#lib/matching/user-matches.ts';
import * as z from '#lib/zod.ts';

/** GET /api/books/getUserMatches: listed books matched to the caller's requests, newest first. */
export const handler = http(
  {
    response: z.array(MatchedBook),
    summary: "Listed books matched to the caller's requests, with inCart and the matching request ids",
  },
  async ({ principal }) => getUserMatches(principal.userId, principal.blockedIds),
);
