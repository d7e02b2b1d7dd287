import { messageRoute } from '#functions/user/message-route.ts';
import { AskSellerBody } from '#lib/conversations/schemas.ts';
import { askSeller } from '#lib/conversations/service.ts';

/** POST /api/user/askSeller: starts or continues the caller's one conversation with the book's seller. */
export const handler = messageRoute(
  AskSellerBody,
  "Ask a book's seller: the caller's one conversation with them, the message tagged with the book",
  askSeller,
);
