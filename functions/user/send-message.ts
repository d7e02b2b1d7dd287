import { SendMessageBody, SentMessage } from '#lib/conversations/schemas.ts';
import { sendMessage } from '#lib/conversations/service.ts';
import { created, http } from '#lib/http/index.ts';

/** POST /api/user/sendMessage: a message in one of the caller's conversations. */
export const handler = http(
  {
    body: SendMessageBody,
    response: SentMessage,
    status: 201,
    errors: [403, 404, 409, 429],
    summary: "Send a message in one of the caller's conversations",
  },
  async ({ body, principal }) => created(await sendMessage(principal.userId, body)),
);
