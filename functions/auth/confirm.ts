import { ConfirmBody, toUser, User } from '#lib/accounts/schemas.ts';
import { confirmSignup } from '#lib/accounts/signup.ts';
import { http } from '#lib/http/index.ts';
import { confirmByForm } from '#lib/http/pages.ts';
import * as z from '#lib/zod.ts';

const Page = z.string().check(z.describe('a small HTML page'));

/**
 * POST /api/auth/confirm: confirm a sign-up with the e-mailed token and the password chosen at
 * sign-up; 200 with the user. The same two fields as an HTML form body (from the link's page)
 * answer a page instead.
 */
export const handler = http(
  {
    auth: 'none',
    body: ConfirmBody,
    forms: true,
    response: User,
    errors: [429],
    summary: 'Confirm a sign-up with the e-mailed token and the password chosen at sign-up',
    rawResponses: {
      200: {
        description: 'Form body: the account is confirmed (a page for a person).',
        contentType: 'text/html',
        schema: Page,
      },
      400: {
        description: 'Form body: a wrong password (the form again) or an invalid link (a page).',
        contentType: 'text/html',
        schema: Page,
      },
    },
  },
  async ({ body, bodyFormat }) =>
    bodyFormat === 'form'
      ? confirmByForm(body.token, body.password)
      : toUser(await confirmSignup(body.token, body.password)),
);
