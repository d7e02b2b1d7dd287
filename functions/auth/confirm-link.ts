import { ConfirmParams } from '#lib/accounts/schemas.ts';
import { http } from '#lib/http/index.ts';
import { confirmationPage } from '#lib/http/pages.ts';
import * as z from '#lib/zod.ts';

const Page = z.string().check(z.describe('a small HTML page'));

/** GET /api/auth/confirm/{token}: the e-mailed link; changes nothing, a page whose form confirms (or 302 to APP_URL). */
export const handler = http(
  {
    auth: 'none',
    params: ConfirmParams,
    summary:
      'The e-mailed confirmation link: changes nothing; a text/html page whose form asks for the sign-up password (or 302 to APP_URL/confirm?token=)',
    rawResponses: {
      200: {
        description:
          'A page with a form that posts the token and the sign-up password to POST /api/auth/confirm; for a link that already confirmed its account, a page saying so with a way to log in.',
        contentType: 'text/html',
        schema: Page,
      },
      302: {
        description:
          'When APP_URL is set: on to the front end, which asks for the password; a link that no longer works goes to the same page with `state=confirmed`, `replaced` or `invalid`.',
        headers: { Location: 'APP_URL/confirm?token=<token> or APP_URL/confirm?state=<state>' },
      },
      400: {
        description:
          'The link was replaced by a newer one (a page saying to open the newest e-mail), or is invalid or expired (a page for a person).',
        contentType: 'text/html',
        schema: Page,
      },
    },
  },
  async ({ params }) => confirmationPage(params.token),
);
