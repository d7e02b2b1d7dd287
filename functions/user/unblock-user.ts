import { BlockResult, UserBody } from '#lib/conversations/schemas.ts';
import { setBlocked } from '#lib/conversations/service.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/user/unblockUser: lifts the caller's block of that user (harmless when there is none). */
export const handler = http(
  {
    body: UserBody,
    response: BlockResult,
    errors: [409],
    summary: "Lift the caller's block of a user",
  },
  async ({ body, principal }) => setBlocked(principal.userId, body.userId, false),
);
