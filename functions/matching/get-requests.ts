import { http } from '#lib/http/index.ts';
import { BookRequest, getRequests } from '#lib/matching/requests.ts';
import * as z from '#lib/zod.ts';

/** GET /api/user/getRequests: the caller's book requests, newest first. */
export const handler = http(
  { response: z.array(BookRequest), summary: "The caller's book requests" },
  async ({ principal }) => getRequests(principal.userId),
);
