import { LoginResult } from '#lib/accounts/schemas.ts';
import { refreshSession } from '#lib/accounts/sessions.ts';
import { assertSameSiteRequest, REFRESH_COOKIE, readCookie, signedInReply } from '#lib/http/cookies.ts';
import { http } from '#lib/http/index.ts';

/**
 * POST /api/auth/refresh (refresh cookie and `X-CSRF: 1`): 200 { token, expiresAt, user } and the
 * rotated cookie; 401 REFRESH_INVALID (no, unknown, expired or revoked family) or REFRESH_REUSED (an
 * older token of the family: every session of the user is signed out); 403 CSRF_REFUSED.
 */
export const handler = http(
  {
    auth: 'none',
    response: LoginResult,
    errors: [401, 403],
    summary: 'A new access token from the refresh cookie, which is rotated',
    headers: ['X-CSRF', 'Cookie'],
  },
  async ({ event }) => {
    assertSameSiteRequest(event);
    return signedInReply(await refreshSession(readCookie(event, REFRESH_COOKIE)));
  },
);
