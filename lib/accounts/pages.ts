/**
 * GET /api/auth/confirm/{token}: the link in the confirmation e-mail, opened in a browser. It
 * answers a small HTML page (or a redirect to APP_URL/email-confirmed when APP_URL is set), never
 * JSON. Everything user-provided is escaped.
 */
import { config } from '#lib/config.ts';
import { RawReply } from '#lib/http/index.ts';
import { escapeHtml } from '#lib/mail/send.ts';
import { InvalidEmailToken } from './errors.ts';
import { confirmSignup } from './signup.ts';

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  // The token is in the URL: never send it on as a referrer.
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
};

export function page(title: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}</style>
</head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>
`;
}

/** Confirms the sign-up of the link's token and answers the page (or redirect). */
export async function confirmByLink(token: string, now: Date = new Date()): Promise<RawReply> {
  try {
    const user = await confirmSignup(token, now);
    if (config.APP_URL) {
      return new RawReply(302, '', {
        Location: `${config.APP_URL.replace(/\/+$/, '')}/email-confirmed`,
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
      });
    }
    return new RawReply(
      200,
      page(
        'Your account is confirmed',
        `Welcome to Campus Books, ${user.firstName}. Your address ${user.emailAddress} is confirmed: you can log in now.`,
      ),
      PAGE_HEADERS,
    );
  } catch (err) {
    if (!(err instanceof InvalidEmailToken)) throw err;
    return new RawReply(
      400,
      page(
        'This link does not work',
        'The confirmation link is invalid, has expired or was already used. Sign up again or ask for a new link.',
      ),
      PAGE_HEADERS,
    );
  }
}
