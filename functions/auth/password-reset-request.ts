import { requestPasswordReset } from '#lib/accounts/password.ts';
import { EmailBody, Message } from '#lib/accounts/schemas.ts';
import { sourceIpOf, takeSendingAllowance } from '#lib/accounts/sending-caps.ts';
import { accepted, http } from '#lib/http/index.ts';

/** POST /api/auth/passwordResetRequest: always 202; an existing account gets a 1-hour reset link. */
export const handler = http(
  {
    auth: 'none',
    body: EmailBody,
    response: Message,
    status: 202,
    errors: [429],
    summary: 'Ask for a password reset e-mail',
  },
  async ({ body, event }) => {
    // per-IP (429) and global (silent) hourly caps, before the per-address limit
    if (await takeSendingAllowance(sourceIpOf(event))) await requestPasswordReset(body.emailAddress);
    return accepted({ message: 'If that address has an account, a reset link is on its way.' });
  },
);
