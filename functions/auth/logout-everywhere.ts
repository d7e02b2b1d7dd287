import { LoggedOut } from '#lib/accounts/schemas.ts';
import { logoutEverywhere } from '#lib/accounts/sessions.ts';
import { clearedRefreshCookies } from '#lib/http/cookies.ts';
import { http, Reply } from '#lib/http/index.ts';

/** POST /api/auth/logoutEverywhere (bearer): every access token and refresh family of the user stops working. */
export const handler = http(
  {
    response: LoggedOut,
    summary: 'Log out every session of the account',
  },
  async ({ principal }) => {
    await logoutEverywhere(principal.userId);
    return new Reply({ loggedOut: true as const }, 200, { cookies: clearedRefreshCookies() });
  },
);
