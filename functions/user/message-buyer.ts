import { MessageBuyerBody, SentMessage } from '#lib/conversations/schemas.ts';
import { messageBuyer } from '#lib/conversations/service.ts';
import { created, http } from '#lib/http/index.ts';

/** POST /api/user/messageBuyer: the seller of a bought book writes to its buyer, first or again. */
export const handler = http(
  {
    body: MessageBuyerBody,
    response: SentMessage,
    status: 201,
    errors: [403, 404, 409, 429],
    summary:
      "Write to the buyer of one's sold book: the caller's one conversation with them, the message tagged with the book",
  },
  async ({ body, principal }) => created(await messageBuyer(principal.userId, body)),
);
