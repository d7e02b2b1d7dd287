import { Message, SignupBody } from '#lib/accounts/schemas.ts';
import { takeSendingAllowance } from '#lib/accounts/sending-caps.ts';
import { signup } from '#lib/accounts/signup.ts';
import { clientAddress } from '#lib/http/client-address.ts';
import { accepted, http } from '#lib/http/index.ts';

/** POST /api/auth/signup: 202 whether the address is new, taken or throttled; the e-mail tells. */
export const handler = http(
  {
    auth: 'none',
    body: SignupBody,
    response: Message,
    status: 202,
    errors: [429],
    summary: 'Sign up with a .edu address; a confirmation e-mail is sent',
  },
  async ({ body, event }) => {
    // per-IP (429) and global (silent) hourly caps, before the per-address limit
    if (await takeSendingAllowance(clientAddress(event))) await signup(body);
    return accepted({ message: 'Check your inbox: we sent an e-mail to that address.' });
  },
);
