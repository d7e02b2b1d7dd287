import { TotpEnrolment } from '#lib/accounts/schemas.ts';
import { enrollTotp } from '#lib/accounts/totp.ts';
import { http } from '#lib/http/index.ts';

/**
 * POST /api/auth/enrollTotp (bearer; admins and owners): a new TOTP secret, pending until
 * confirmTotp, as an otpauth:// URI (for a QR code) and as text. 403 for a student, 409 when on.
 */
export const handler = http(
  {
    response: TotpEnrolment,
    errors: [403, 409],
    summary: 'Start two-factor sign-in: a pending TOTP secret (admins and owners)',
  },
  async ({ principal }) => enrollTotp(principal),
);
