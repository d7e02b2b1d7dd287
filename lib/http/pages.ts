/**
 * The HTML pages for a person in a browser: the sign-up confirmation and the one-click unsubscribe.
 *
 * Confirmation: GET /api/auth/confirm/{token} (the e-mailed link) changes nothing: it answers a
 * page whose form asks for the password chosen at sign-up (or a redirect to APP_URL/confirm?token=
 * when APP_URL is set); that form posts to POST /api/auth/confirm, which then answers a page too.
 * Unsubscribe: the page behind a one-click link (lib/preferences/unsubscribe.ts holds the token).
 * Never JSON. Everything user-provided is escaped.
 */
import { InvalidEmailToken, WrongSignupPassword } from '#lib/accounts/errors.ts';
import { confirmSignup, pendingSignupFor, spentLinkState } from '#lib/accounts/signup.ts';
import { config } from '#lib/config.ts';
import { appLinks, trimBase } from '#lib/mail/links.ts';
import { escapeHtml } from '#lib/mail/send.ts';
import { readUnsubscribeToken } from '#lib/preferences/unsubscribe.ts';
import type { EmailCategory } from '#lib/values/preferences.ts';
import { RawReply } from './index.ts';

const base = trimBase;
const confirmAction = (): string => `${base(config.PUBLIC_URL)}/api/auth/confirm`;

function pageHeaders(): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    // The token is in the URL: never send it on as a referrer.
    'Referrer-Policy': 'no-referrer',
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${new URL(config.PUBLIC_URL).origin}; frame-ancestors 'none'`,
  };
}

/** A page: title and paragraphs are text (escaped here); `extra` is trusted HTML. */
export function page(title: string, message: string, extra = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}label,input,button{display:block;margin:.5rem 0}</style>
</head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${extra}</body></html>
`;
}

/** The form that confirms: the token hidden, the sign-up password asked for. */
function confirmForm(token: string): string {
  return `<form method="post" action="${escapeHtml(confirmAction())}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<label for="password">The password you chose at sign-up</label>
<input id="password" name="password" type="password" autocomplete="current-password" required minlength="1">
<button type="submit">Confirm my account</button>
</form>`;
}

const invalidLinkPage = (): RawReply =>
  new RawReply(
    400,
    page(
      'This link does not work',
      'The confirmation link is invalid, has expired or was already used. Sign up again or ask for a new link.',
    ),
    pageHeaders(),
  );

/** A link that no longer works, told as it is: it confirmed the account, or a newer link replaced it. */
function spentLinkPage(state: 'confirmed' | 'replaced' | 'invalid'): RawReply {
  if (state === 'confirmed') {
    return new RawReply(
      200,
      page(
        'Your account is already confirmed',
        'This link already confirmed your account: log in with your address and the password you chose.',
        `<p><a href="${escapeHtml(appLinks.login())}">Log in</a></p>`,
      ),
      pageHeaders(),
    );
  }
  if (state === 'replaced') {
    return new RawReply(
      400,
      page(
        'This link was replaced',
        'A newer confirmation link was sent to this address: open the newest e-mail from Campus Books and use its link.',
      ),
      pageHeaders(),
    );
  }
  return invalidLinkPage();
}

/**
 * GET of the e-mailed link: reads only. A form asking for the sign-up password, or a redirect to
 * APP_URL. A link that no longer works says why (already confirmed: log in; replaced: the newest
 * e-mail), on the web app's page when there is one, else here.
 */
export async function confirmationPage(token: string, now: Date = new Date()): Promise<RawReply> {
  const pending = await pendingSignupFor(token, now);
  if (!pending) {
    const state = await spentLinkState(token);
    if (config.APP_URL) {
      return new RawReply(302, '', {
        Location: appLinks.confirmState(config.APP_URL, state),
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
      });
    }
    return spentLinkPage(state);
  }
  if (config.APP_URL) {
    return new RawReply(302, '', {
      Location: appLinks.confirmPage(config.APP_URL, token),
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    });
  }
  return new RawReply(
    200,
    page(
      'Confirm your account',
      `Hi ${pending.signup.firstName}, enter the password you chose at sign-up to confirm ${pending.signup.emailAddress}.`,
      confirmForm(token),
    ),
    pageHeaders(),
  );
}

/** POST of the page's form: confirms and answers a page (a wrong password shows the form again). */
export async function confirmByForm(
  token: string,
  password: string,
  now: Date = new Date(),
): Promise<RawReply> {
  try {
    const user = await confirmSignup(token, password, now);
    return new RawReply(
      200,
      page(
        'Your account is confirmed',
        `Welcome to Campus Books, ${user.firstName}. Your address ${user.emailAddress} is confirmed: you can log in now.`,
      ),
      pageHeaders(),
    );
  } catch (err) {
    if (err instanceof WrongSignupPassword) {
      return new RawReply(
        400,
        page('Wrong password', 'This is not the password chosen at sign-up. Try again.', confirmForm(token)),
        pageHeaders(),
      );
    }
    if (err instanceof InvalidEmailToken) return invalidLinkPage();
    throw err;
  }
}

const CATEGORY_WORDS: Record<EmailCategory, string> = {
  matches: 'e-mails about books matching your requests',
  purchases: 'e-mails about your purchases and sales',
  listings: 'e-mails about your listings',
  messages: 'e-mails about new messages in your conversations',
  saved: 'e-mails about books you saved',
};

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
};

/** The page a browser gets after the button's POST. */
export function unsubscribedPage(message: string): RawReply {
  return new RawReply(
    200,
    page('Unsubscribed', `${message} You can change this in your e-mail preferences.`),
    {
      ...PAGE_HEADERS,
    },
  );
}

/**
 * The page behind the link: a button that makes the one-click POST (mail scanners follow GET
 * links, so the GET itself changes nothing). It shows the category only, never who it is for.
 * With a front end (APP_URL) the link goes on to its page, `APP_URL/unsubscribe?token=`, which
 * shows the same button; the one-click POST of mail clients stays on this URL.
 */
export function unsubscribePage(token: string): RawReply {
  if (config.APP_URL) {
    return new RawReply(302, '', {
      Location: appLinks.unsubscribePage(config.APP_URL, token),
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    });
  }
  const subject = readUnsubscribeToken(token);
  const what = subject ? CATEGORY_WORDS[subject.category] : 'these e-mails';
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Unsubscribe</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}</style>
</head><body><h1>Unsubscribe</h1><p>Stop receiving ${escapeHtml(what)} from Campus Books?</p>
<form method="post" action="${escapeHtml(encodeURIComponent(token))}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button></form>
<p>You can change this at any time in your e-mail preferences.</p></body></html>
`;
  return new RawReply(200, body, PAGE_HEADERS);
}
