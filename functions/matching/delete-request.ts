import { http } from '#lib/http/index.ts';
import { DeleteRequestBody, deleteRequest } from '#lib/matching/requests.ts';
import * as z from '#lib/zod.ts';

/** POST /api/user/deleteRequest: delete one of the caller's requests and its matches. */
export const handler = http(
  {
    body: DeleteRequestBody,
    response: z.strictObject({ id: z.string() }),
    errors: [404],
    summary: "Delete one of the caller's requests (and its matches)",
  },
  async ({ body, principal }) => deleteRequest(principal.userId, body.requestId),
);
