import { confirmTotpSignedIn } from '#lib/accounts/login.ts';
import { ConfirmTotpBody, TotpRecoveryCodes } from '#lib/accounts/schemas.ts';
import { refreshLifetimeSeconds } from '#lib/accounts/sessions.ts';
import { refreshCookies } from '#lib/http/cookies.ts';
import { http, Reply } from '#lib/http/index.ts';

/**
 * POST /api/auth/confirmTotp { code } (bearer): a code of the pending secret turns two-factor
 * sign-in on; answers the 10 single-use recovery codes, once, and a token (and refresh cookie) for
 * this session that count as having passed the second factor. 400 wrong code, 409 nothing pending.
 */
export const handler = http(
  {
    body: ConfirmTotpBody,
    response: TotpRecoveryCodes,
    errors: [409],
    summary: 'Turn two-factor sign-in on with a code; answers 10 recovery codes, once, and a new token',
  },
  async ({ principal, body }) => {
    const { recoveryCodes, token, refreshToken } = await confirmTotpSignedIn(principal, body.code);
    return new Reply({ recoveryCodes, token }, 200, {
      cookies: refreshCookies(refreshToken, refreshLifetimeSeconds()),
    });
  },
);
