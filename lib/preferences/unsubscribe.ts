/**
 * One-click unsubscribe (RFC 8058). The token in a link is `<userId>.<category>.<MAC>`: it names
 * one user and one category, is bound to them by an HMAC (key derived from JWT_SECRET with its own
 * label, so no other token of the service verifies as one), and can only do one thing: turn that
 * category off for that user. It is not a login token and reading anything with it is impossible:
 * the POST answers the same 200 whatever the token, and the GET page only shows a button.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { page } from '#lib/accounts/pages.ts';
import { config, secret } from '#lib/config.ts';
import { setPreferences } from '#lib/db/preferences.ts';
import { RawReply } from '#lib/http/index.ts';
import { escapeHtml } from '#lib/mail/send.ts';
import { EMAIL_CATEGORIES, type EmailCategory, OFF } from '#lib/values/preferences.ts';
import * as z from '#lib/zod.ts';

/** Derived from the JWT secret on first use: only the functions that build or check links need it. */
let derivedKey: Buffer | undefined;
const key = (): Buffer => {
  derivedKey ??= createHmac('sha256', secret('JWT_SECRET')).update('campus-books unsubscribe v1').digest();
  return derivedKey;
};
const MAC_BYTES = 18;

const mac = (userId: string, category: EmailCategory): Buffer =>
  createHmac('sha256', key()).update(userId).update('\0').update(category).digest().subarray(0, MAC_BYTES);

/** The path parameter: bounded and of the token's alphabet (anything else is simply not a token). */
export const UnsubscribeParams = z.strictObject({
  token: z
    .string()
    .check(z.minLength(1))
    .check(z.maxLength(200))
    .check(z.regex(/^[A-Za-z0-9._-]+$/, 'Invalid token.')),
});

export function unsubscribeToken(userId: string, category: EmailCategory): string {
  return `${userId}.${category}.${mac(userId, category).toString('base64url')}`;
}

/** The link put in an e-mail of `category` to `userId`. */
export function unsubscribeUrl(userId: string, category: EmailCategory): string {
  return `${config.PUBLIC_URL.replace(/\/+$/, '')}/api/user/unsubscribe/${unsubscribeToken(userId, category)}`;
}

/** The user and category a token was issued for, or null when it was not issued by this service. */
export function readUnsubscribeToken(token: string): { userId: string; category: EmailCategory } | null {
  const [userId, category, given, extra] = token.split('.');
  if (!userId || !category || !given || extra !== undefined) return null;
  if (!(EMAIL_CATEGORIES as readonly string[]).includes(category)) return null;
  if (!/^[0-9A-Z]{26}$/.test(userId)) return null;
  const expected = mac(userId, category as EmailCategory);
  const got = Buffer.from(given, 'base64url');
  if (got.length !== expected.length || !timingSafeEqual(got, expected)) return null;
  return { userId, category: category as EmailCategory };
}

export const UNSUBSCRIBED_MESSAGE = 'You are unsubscribed.';

/**
 * Turns off the token's category (a no-op for a token not issued by the service or a user that no
 * longer exists). The answer is the same in every case.
 */
export async function unsubscribe(token: string): Promise<{ message: string }> {
  const subject = readUnsubscribeToken(token);
  if (subject) await setPreferences(subject.userId, OFF[subject.category]);
  return { message: UNSUBSCRIBED_MESSAGE };
}

const CATEGORY_WORDS: Record<EmailCategory, string> = {
  matches: 'e-mails about books matching your requests',
  purchases: 'e-mails about your purchases and sales',
  listings: 'e-mails about your listings',
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
      Location: `${config.APP_URL.replace(/\/+$/, '')}/unsubscribe?token=${encodeURIComponent(token)}`,
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
