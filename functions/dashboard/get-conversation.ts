import { AdminThread, ConversationParams, MessagesQuery } from '#lib/conversations/schemas.ts';
import { adminReadThread } from '#lib/conversations/service.ts';
import { http, Reply } from '#lib/http/index.ts';

/** GET /api/dashboard/getConversation/{conversationId}: an admin reads a conversation; each read audited. */
export const handler = http(
  {
    role: 'admin',
    params: ConversationParams,
    query: MessagesQuery,
    response: AdminThread,
    paged: true,
    errors: [404],
    summary: 'Read a conversation (admin); every read is written to the audit log',
  },
  async ({ params, query, principal }) => {
    const { thread, next } = await adminReadThread(principal.userId, params.conversationId, query);
    return new Reply(thread, 200, { next });
  },
);
