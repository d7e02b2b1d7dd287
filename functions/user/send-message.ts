import { messageRoute } from '#functions/user/message-route.ts';
import { SendMessageBody } from '#lib/conversations/schemas.ts';
import { sendMessage } from '#lib/conversations/service.ts';

/** POST /api/user/sendMessage: a message in one of the caller's conversations. */
export const handler = messageRoute(
  SendMessageBody,
  "Send a message in one of the caller's conversations",
  sendMessage,
);
