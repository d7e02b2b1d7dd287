import { AskSellerBody, SentMessage } from '#lib/conversations/schemas.ts';
import { askSeller } from '#lib/conversations/service.ts';
import { created, http } from '#lib/http/index.ts';

/** POST /api/user/askSeller: starts or continues the caller's one conversation with the book's seller. */
export const handler = http(
  {
    body: AskSellerBody,
    response: SentMessage,
    status: 201,
    errors: [403, 404, 409, 429],
    summary: "Ask a book's seller: the caller's one conversation with them, the message tagged with the book",
  },
  async ({ body, principal }) => created(await askSeller(principal.userId, body)),
);
