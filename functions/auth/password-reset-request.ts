import { mailRequest } from '#functions/auth/mail-request.ts';
import { requestPasswordReset } from '#lib/accounts/password.ts';

/** POST /api/auth/passwordResetRequest: always 202; an existing account gets a 1-hour reset link. */
export const handler = mailRequest(
  'Ask for a password reset e-mail',
  'If that address has an account, a reset link is on its way.',
  (emailAddress) => requestPasswordReset(emailAddress),
);
