import { changePassword } from '#lib/accounts/password.ts';
import { NewToken, UpdatePasswordBody } from '#lib/accounts/schemas.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/auth/updatePassword: needs the current password; returns a new token, older ones stop working. */
export const handler = http(
  {
    body: UpdatePasswordBody,
    response: NewToken,
    errors: [403, 429],
    summary: 'Change the password (current password required)',
  },
  async ({ body, principal }) => changePassword(principal, body.password, body.newPassword),
);
