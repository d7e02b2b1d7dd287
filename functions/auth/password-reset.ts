import { resetPassword } from '#lib/accounts/password.ts';
import { Message, PasswordResetBody } from '#lib/accounts/schemas.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/auth/passwordReset: sets a new password with the e-mailed token; older JWTs stop working. */
export const handler = http(
  {
    auth: 'none',
    body: PasswordResetBody,
    response: Message,
    summary: 'Set a new password with the e-mailed reset token',
  },
  async ({ body }) => {
    await resetPassword(body.token, body.password);
    return { message: 'Your password is changed. Log in with the new one.' };
  },
);
