import { ConfirmTotpBody, TotpRecoveryCodes } from '#lib/accounts/schemas.ts';
import { confirmTotp } from '#lib/accounts/totp.ts';
import { http } from '#lib/http/index.ts';

/**
 * POST /api/auth/confirmTotp { code } (bearer): a code of the pending secret turns two-factor
 * sign-in on; answers the 10 single-use recovery codes, once. 400 wrong code, 409 nothing pending.
 */
export const handler = http(
  {
    body: ConfirmTotpBody,
    response: TotpRecoveryCodes,
    errors: [409],
    summary: 'Turn two-factor sign-in on with a code; answers 10 recovery codes, once',
  },
  async ({ principal, body }) => confirmTotp(principal, body.code),
);
