import { z } from 'zod';
import { confirmByLink } from '#lib/accounts/pages.ts';
import { ConfirmParams } from '#lib/accounts/schemas.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/auth/confirm/{token}: the e-mailed link; an HTML page (or 302 to APP_URL), 400 page if invalid. */
export const handler = http(
  {
    auth: 'none',
    params: ConfirmParams,
    response: z.string(),
    summary: 'Confirm a sign-up from the e-mailed link (text/html page, or 302 to APP_URL/email-confirmed)',
  },
  async ({ params }) => confirmByLink(params.token),
);
