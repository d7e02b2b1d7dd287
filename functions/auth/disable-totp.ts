import { DisableTotpBody, TotpDisabled } from '#lib/accounts/schemas.ts';
import { disableTotp } from '#lib/accounts/totp.ts';
import { http } from '#lib/http/index.ts';

/**
 * POST /api/auth/disableTotp { password, code } (bearer): turns two-factor sign-in off. 403 wrong
 * password, 400 wrong code, 409 not on, 429 throttled (both count as login failures).
 */
export const handler = http(
  {
    body: DisableTotpBody,
    response: TotpDisabled,
    errors: [403, 409, 429],
    summary: 'Turn two-factor sign-in off (password and a code)',
  },
  async ({ principal, body }) => disableTotp(principal, body),
);
