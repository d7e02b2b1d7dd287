import { login } from '#lib/accounts/login.ts';
import { LoginBody, LoginResult } from '#lib/accounts/schemas.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/auth/login: 200 { token, expiresAt, user }; 401 for any wrong pair; 429 when throttled. */
export const handler = http(
  {
    auth: 'none',
    body: LoginBody,
    response: LoginResult,
    errors: [401, 429],
    summary: 'Log in with e-mail address and password',
  },
  async ({ body }) => login(body),
);
