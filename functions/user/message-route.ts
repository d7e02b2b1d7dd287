/**
 * The routes that send a message (askSeller, messageBuyer, sendMessage), declared once: each
 * answers 201 with the message sent and its conversation, and refuses alike (403 blocked, 404 no
 * such book or conversation for the caller, 409 not in a state to write about, 429 the sending
 * limits). They differ only in their input, summary and the domain function. Not a handler: the
 * handlers use it.
 */
import { SentMessage } from '#lib/conversations/schemas.ts';
import { created, http } from '#lib/http/index.ts';
import type * as z from '#lib/zod.ts';

export const messageRoute = <B extends z.ZodMiniType>(
  body: B,
  summary: string,
  send: (userId: string, body: z.output<B>) => Promise<z.output<typeof SentMessage>>,
) =>
  http({ body, response: SentMessage, status: 201, errors: [403, 404, 409, 429], summary }, async (input) =>
    created(await send(input.principal.userId, input.body as z.output<B>)),
  );
