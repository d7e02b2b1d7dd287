import { http } from '#lib/http/index.ts';
import { unsubscribePage } from '#lib/http/pages.ts';
import { UnsubscribeParams } from '#lib/preferences/unsubscribe.ts';
import * as z from '#lib/zod.ts';

/** GET /api/user/unsubscribe/{token}: a page with a button that makes the one-click POST (or 302 to APP_URL); changes nothing. */
export const handler = http(
  {
    auth: 'none',
    params: UnsubscribeParams,
    summary:
      'The unsubscribe page of an e-mailed link (text/html with a button, or 302 to APP_URL/unsubscribe?token=)',
    rawResponses: {
      200: {
        description: 'A page with an Unsubscribe button.',
        contentType: 'text/html',
        schema: z.string(),
      },
      302: {
        description: 'When APP_URL is set: on to the front end, which shows the same button.',
        headers: { Location: 'APP_URL/unsubscribe?token=<token>' },
      },
    },
  },
  async ({ params }) => unsubscribePage(params.token),
);
