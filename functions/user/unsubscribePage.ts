import { z } from 'zod';
import { http } from '#lib/http/index.ts';
import { UnsubscribeParams, unsubscribePage } from '#lib/preferences/unsubscribe.ts';

/** GET /api/user/unsubscribe/{token}: a page with a button that makes the one-click POST; changes nothing. */
export const handler = http(
  {
    auth: 'none',
    params: UnsubscribeParams,
    summary: 'The unsubscribe page of an e-mailed link (text/html with a button)',
    rawResponses: {
      200: {
        description: 'A page with an Unsubscribe button.',
        contentType: 'text/html',
        schema: z.string(),
      },
    },
  },
  async ({ params }) => unsubscribePage(params.token),
);
