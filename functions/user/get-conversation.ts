import { ConversationParams, MessagesQuery, Thread } from '#lib/conversations/schemas.ts';
import { readThread } from '#lib/conversations/service.ts';
import { http, RawReply, Reply } from '#lib/http/index.ts';

/** GET /api/user/getConversation/{conversationId}?limit=&cursor=: one page of a thread, with an ETag. */
export const handler = http(
  {
    params: ConversationParams,
    query: MessagesQuery,
    response: Thread,
    paged: true,
    headers: ['If-None-Match'],
    errors: [404],
    rawResponses: {
      304: {
        description: 'Nothing changed since the ETag sent in If-None-Match',
        headers: { ETag: 'the same ETag' },
      },
    },
    summary:
      "One of the caller's conversations: messages oldest to newest, `next` opens older ones; ETag and 304",
  },
  async ({ params, query, principal, headers }) => {
    const answer = await readThread(principal.userId, params.conversationId, query, headers['if-none-match']);
    if (answer.notModified) return new RawReply(304, '', { ETag: answer.etag });
    return new Reply(answer.thread, 200, { next: answer.next, headers: { ETag: answer.etag } });
  },
);
