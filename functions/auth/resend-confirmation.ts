import { EmailBody, Message } from '#lib/accounts/schemas.ts';
import { sourceIpOf, takeSendingAllowance } from '#lib/accounts/sending-caps.ts';
import { resendConfirmation } from '#lib/accounts/signup.ts';
import { accepted, http } from '#lib/http/index.ts';

/** POST /api/auth/resendConfirmation: always 202 (throttled per address, silently). */
export const handler = http(
  {
    auth: 'none',
    body: EmailBody,
    response: Message,
    status: 202,
    errors: [429],
    summary: 'Send the confirmation e-mail again (with a fresh link)',
  },
  async ({ body, event }) => {
    // per-IP (429) and global (silent) hourly caps, before the per-address limit
    if (await takeSendingAllowance(sourceIpOf(event))) await resendConfirmation(body.emailAddress);
    return accepted({ message: 'If that address has a pending sign-up, a new link is on its way.' });
  },
);
