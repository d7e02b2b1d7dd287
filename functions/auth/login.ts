import { loginWithRefresh } from '#lib/accounts/login.ts';
import { LoginBody, LoginResult } from '#lib/accounts/schemas.ts';
import { readCookie, signedInReply } from '#lib/http/cookies.ts';
import { http } from '#lib/http/index.ts';

/**
 * POST /api/auth/login: 200 { token, expiresAt, user }, the refresh cookie of a new family and the
 * browser's device cookie for the account (lib/http/cookies.ts); 401 for any wrong pair, and
 * MFA_REQUIRED / MFA_CODE_INVALID when the account has two-factor sign-in and the code is missing
 * or wrong; 429 when throttled (per device for a known browser, else per address).
 */
export const handler = http(
  {
    auth: 'none',
    body: LoginBody,
    response: LoginResult,
    errors: [401, 429],
    headers: ['Cookie'],
    summary: 'Log in with e-mail address and password (also sets the refresh cookie)',
  },
  async ({ body, event }) => signedInReply(await loginWithRefresh(body, (name) => readCookie(event, name))),
);
