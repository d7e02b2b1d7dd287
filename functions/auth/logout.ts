import { LoggedOut } from '#lib/accounts/schemas.ts';
import { logoutSession } from '#lib/accounts/sessions.ts';
import {
  assertSameSiteRequest,
  clearedRefreshCookies,
  LOGOUT_COOKIE,
  readCookie,
} from '#lib/http/cookies.ts';
import { http, Reply } from '#lib/http/index.ts';

/** POST /api/auth/logout (refresh cookie and `X-CSRF: 1`): ends this login's refresh family and clears the cookie. */
export const handler = http(
  {
    auth: 'none',
    response: LoggedOut,
    errors: [403],
    headers: ['X-CSRF', 'Cookie'],
    summary: 'Log out this session (its refresh family) and clear the refresh cookie',
  },
  async ({ event }) => {
    assertSameSiteRequest(event);
    await logoutSession(readCookie(event, LOGOUT_COOKIE));
    return new Reply({ loggedOut: true as const }, 200, { cookies: clearedRefreshCookies() });
  },
);
