import { requestPasswordReset } from '#lib/accounts/password.ts';
import { EmailBody, Message } from '#lib/accounts/schemas.ts';
import { accepted, http } from '#lib/http/index.ts';

/** POST /api/auth/passwordResetRequest: always 202; an existing account gets a 1-hour reset link. */
export const handler = http(
  {
    auth: 'none',
    body: EmailBody,
    response: Message,
    status: 202,
    summary: 'Ask for a password reset e-mail',
  },
  async ({ body }) => {
    await requestPasswordReset(body.emailAddress);
    return accepted({ message: 'If that address has an account, a reset link is on its way.' });
  },
);
