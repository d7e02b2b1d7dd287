import { mailRequest } from '#functions/auth/mail-request.ts';
import { resendConfirmation } from '#lib/accounts/signup.ts';

/** POST /api/auth/resendConfirmation: always 202 (throttled per address, silently). */
export const handler = mailRequest(
  'Send the confirmation e-mail again (with a fresh link)',
  'If that address has a pending sign-up, a new link is on its way.',
  (emailAddress) => resendConfirmation(emailAddress),
);
