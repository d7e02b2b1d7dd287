/** Calling the conversation routes in-process, the way the HTTP API does. */

import { handler as adminGetConversationHandler } from '#functions/dashboard/get-conversation.ts';
import { handler as askSellerHandler } from '#functions/user/ask-seller.ts';
import { handler as blockUserHandler } from '#functions/user/block-user.ts';
import { handler as getConversationHandler } from '#functions/user/get-conversation.ts';
import { handler as getConversationsHandler } from '#functions/user/get-conversations.ts';
import { handler as markReadHandler } from '#functions/user/mark-conversation-read.ts';
import { handler as messageBuyerHandler } from '#functions/user/message-buyer.ts';
import { handler as sendMessageHandler } from '#functions/user/send-message.ts';
import { handler as unblockUserHandler } from '#functions/user/unblock-user.ts';
import { SentMessage } from '#lib/conversations/schemas.ts';
import { invoke } from './lambda.ts';
import { expectEnvelope } from './schema.ts';

const post = (handler: Parameters<typeof invoke>[0], route: string, token: string, body: unknown) =>
  invoke(handler, { method: 'POST', route, token, body });

export const askSeller = (token: string, body: unknown) =>
  post(askSellerHandler, '/api/user/askSeller', token, body);
export const messageBuyer = (token: string, body: unknown) =>
  post(messageBuyerHandler, '/api/user/messageBuyer', token, body);
export const sendMessage = (token: string, body: unknown) =>
  post(sendMessageHandler, '/api/user/sendMessage', token, body);
export const markConversationRead = (token: string, conversationId: string) =>
  post(markReadHandler, '/api/user/markConversationRead', token, { conversationId });
export const blockUser = (token: string, userId: string) =>
  post(blockUserHandler, '/api/user/blockUser', token, { userId });
export const unblockUser = (token: string, userId: string) =>
  post(unblockUserHandler, '/api/user/unblockUser', token, { userId });

export const getConversations = (token: string, query?: Record<string, string>) =>
  invoke(getConversationsHandler, { route: '/api/user/getConversations', token, query });

export const getConversation = (
  token: string,
  conversationId: string,
  options: { query?: Record<string, string>; ifNoneMatch?: string } = {},
) =>
  invoke(getConversationHandler, {
    route: '/api/user/getConversation/{conversationId}',
    pathParameters: { conversationId },
    token,
    query: options.query,
    headers: options.ifNoneMatch ? { 'if-none-match': options.ifNoneMatch } : {},
  });

/** GET /api/dashboard/getConversation/{conversationId}: an admin reads any conversation. */
export const adminGetConversation = (token: string, conversationId: string) =>
  invoke(adminGetConversationHandler, {
    route: '/api/dashboard/getConversation/{conversationId}',
    pathParameters: { conversationId },
    token,
  });

/** Asks a book's seller and expects 201; returns the message and its conversation id. */
export async function asked(token: string, bookId: string, text = 'Is it still available?') {
  const res = await askSeller(token, { bookId, text });
  if (res.status !== 201) throw new Error(`askSeller answered ${res.status}: ${res.body}`);
  return expectEnvelope(res.json(), SentMessage);
}
