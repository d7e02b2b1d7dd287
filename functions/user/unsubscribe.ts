import { http } from '#lib/http/index.ts';
import { unsubscribedPage } from '#lib/http/pages.ts';
import { UnsubscribeParams, unsubscribe } from '#lib/preferences/unsubscribe.ts';
import * as z from '#lib/zod.ts';

const Unsubscribed = z
  .strictObject({ message: z.string() })
  .check(z.meta({ examples: [{ message: 'You are unsubscribed.' }] }));

/**
 * POST /api/user/unsubscribe/{token}: RFC 8058 one-click unsubscribe (no token needed). Takes the
 * form body `List-Unsubscribe=One-Click` (urlencoded or multipart) or none; always 200. A browser
 * (the page's button, Accept text/html) gets a page, a mail client the envelope.
 */
export const handler = http(
  {
    auth: 'none',
    params: UnsubscribeParams,
    formBody: true,
    response: Unsubscribed,
    summary: 'One-click unsubscribe from the category of the e-mailed link (always 200)',
    rawResponses: {
      200: { description: 'For a browser: a page saying so.', contentType: 'text/html', schema: z.string() },
    },
  },
  async ({ params, headers }) => {
    const result = await unsubscribe(params.token);
    if (/text\/html/i.test(headers.accept ?? '')) return unsubscribedPage(result.message);
    return result;
  },
);
