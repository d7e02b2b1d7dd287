import { ConfirmBody, toUser, User } from '#lib/accounts/schemas.ts';
import { confirmSignup } from '#lib/accounts/signup.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/auth/confirm: confirm a sign-up with the token from the e-mail; 200 with the user. */
export const handler = http(
  {
    auth: 'none',
    body: ConfirmBody,
    response: User,
    summary: 'Confirm a sign-up with the e-mailed token',
  },
  async ({ body }) => toUser(await confirmSignup(body.token)),
);
