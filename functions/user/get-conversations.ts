import { ConversationSummary, ConversationsQuery } from '#lib/conversations/schemas.ts';
import { listConversations } from '#lib/conversations/service.ts';
import { callerPage } from '#lib/http/caller-page.ts';

/** GET /api/user/getConversations?limit=&cursor=: the caller's conversations, newest activity first. */
export const handler = callerPage(
  {
    query: ConversationsQuery,
    item: ConversationSummary,
    summary:
      "The caller's conversations, newest activity first, each with its book, last message and unread count",
  },
  listConversations,
);
