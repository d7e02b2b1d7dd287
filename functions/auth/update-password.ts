import { changePasswordKeepingSession } from '#lib/accounts/password.ts';
import { NewToken, UpdatePasswordBody } from '#lib/accounts/schemas.ts';
import { refreshLifetimeSeconds } from '#lib/accounts/sessions.ts';
import { refreshCookies } from '#lib/http/cookies.ts';
import { http, Reply } from '#lib/http/index.ts';

/**
 * POST /api/auth/updatePassword: needs the current password; returns a new token, older ones (and
 * every other session's refresh cookie) stop working; this session gets a new refresh cookie.
 */
export const handler = http(
  {
    body: UpdatePasswordBody,
    response: NewToken,
    errors: [403, 429],
    summary: 'Change the password (current password required)',
  },
  async ({ body, principal }) => {
    const { token, refreshToken } = await changePasswordKeepingSession(
      principal,
      body.password,
      body.newPassword,
    );
    return new Reply({ token }, 200, { cookies: refreshCookies(refreshToken, refreshLifetimeSeconds()) });
  },
);
