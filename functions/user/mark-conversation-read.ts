import { ConversationBody, ReadResult } from '#lib/conversations/schemas.ts';
import { markConversationRead } from '#lib/conversations/service.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/user/markConversationRead: the caller has read the conversation. */
export const handler = http(
  {
    body: ConversationBody,
    response: ReadResult,
    errors: [404],
    summary: "Mark one of the caller's conversations read (its unread count back to 0)",
  },
  async ({ body, principal }) => markConversationRead(principal.userId, body.conversationId),
);
