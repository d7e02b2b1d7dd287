/**
 * The routes that e-mail an address on request (a password reset link, a new confirmation link),
 * declared once: anyone may ask, the per-IP (429) and global (silent) hourly caps come before the
 * per-address limit, and the answer is always 202 with the same message whether or not the address
 * has an account, so the route tells nobody which addresses exist. Not a handler: the handlers use it.
 */
import { EmailBody, Message } from '#lib/accounts/schemas.ts';
import { takeSendingAllowance } from '#lib/accounts/sending-caps.ts';
import { clientAddress } from '#lib/http/client-address.ts';
import { accepted, http } from '#lib/http/index.ts';

export const mailRequest = (
  summary: string,
  message: string,
  send: (emailAddress: string) => Promise<void>,
) =>
  http(
    { auth: 'none', body: EmailBody, response: Message, status: 202, errors: [429], summary },
    async ({ body, event }) => {
      if (await takeSendingAllowance(clientAddress(event))) await send(body.emailAddress);
      return accepted({ message });
    },
  );
