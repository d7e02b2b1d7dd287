import { messageRoute } from '#functions/user/message-route.ts';
import { MessageBuyerBody } from '#lib/conversations/schemas.ts';
import { messageBuyer } from '#lib/conversations/service.ts';

/** POST /api/user/messageBuyer: the seller of a bought book writes to its buyer, first or again. */
export const handler = messageRoute(
  MessageBuyerBody,
  "Write to the buyer of one's sold book: the caller's one conversation with them, the message tagged with the book",
  messageBuyer,
);
