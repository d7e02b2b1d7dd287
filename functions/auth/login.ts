import { loginWithRefresh } from '#lib/accounts/login.ts';
import { LoginBody, LoginResult } from '#lib/accounts/schemas.ts';
import { signedInReply } from '#lib/http/cookies.ts';
import { http } from '#lib/http/index.ts';

/**
 * POST /api/auth/login: 200 { token, expiresAt, user } and the refresh cookie of a new family
 * (lib/http/cookies.ts); 401 for any wrong pair; 429 when throttled.
 */
export const handler = http(
  {
    auth: 'none',
    body: LoginBody,
    response: LoginResult,
    errors: [401, 429],
    summary: 'Log in with e-mail address and password (also sets the refresh cookie)',
  },
  async ({ body }) => signedInReply(await loginWithRefresh(body)),
);
