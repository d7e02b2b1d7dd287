import { BlockResult, UserBody } from '#lib/conversations/schemas.ts';
import { setBlocked } from '#lib/conversations/service.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/user/blockUser: no messages and no new conversation between the caller and that user. */
export const handler = http(
  {
    body: UserBody,
    response: BlockResult,
    errors: [404, 409],
    summary: 'Block a user: messages and new conversations between the two are refused (403)',
  },
  async ({ body, principal }) => setBlocked(principal.userId, body.userId, true),
);
