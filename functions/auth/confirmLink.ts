import { z } from 'zod';
import { confirmByLink } from '#lib/accounts/pages.ts';
import { ConfirmParams } from '#lib/accounts/schemas.ts';
import { http } from '#lib/http/index.ts';

const Page = z.string().describe('a small HTML page');

/** GET /api/auth/confirm/{token}: the e-mailed link; an HTML page (or 302 to APP_URL), 400 page if invalid. */
export const handler = http(
  {
    auth: 'none',
    params: ConfirmParams,
    summary: 'Confirm a sign-up from the e-mailed link (text/html page, or 302 to APP_URL/email-confirmed)',
    rawResponses: {
      200: {
        description: 'The account is confirmed (a page for a person).',
        contentType: 'text/html',
        schema: Page,
      },
      302: {
        description: 'When APP_URL is set: the account is confirmed, on to the front end.',
        headers: { Location: 'APP_URL/email-confirmed' },
      },
      400: {
        description: 'The link is invalid, expired or already used (a page for a person).',
        contentType: 'text/html',
        schema: Page,
      },
    },
  },
  async ({ params }) => confirmByLink(params.token),
);
