/**
 * One-click unsubscribe (RFC 8058). The token in a link is `<userId>.<category>.<MAC>`: it names
 * one user and one category, is bound to them by an HMAC (key derived from JWT_SECRET with its own
 * label, so no other token of the service verifies as one), and can only do one thing: turn that
 * category off for that user. It is not a login token and reading anything with it is impossible:
 * the POST answers the same 200 whatever the token, and the GET page only shows a button.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { config, derivedKey } from '#lib/config.ts';
import { setPreferences } from '#lib/db/preferences.ts';
import { EMAIL_CATEGORIES, type EmailCategory, OFF } from '#lib/values/preferences.ts';
import * as z from '#lib/zod.ts';

/** Derived from the JWT secret on first use: only the functions that build or check links need it. */
const key = (): Buffer => derivedKey('campus-books unsubscribe v1');
const MAC_BYTES = 18;
/** 18 bytes are exactly 24 base64url characters (no padding, no spare bits): one spelling per token. */
const MAC_CHARS = 24;
/** The only shape a token has: a ULID, a category, the MAC in its exact encoded length. */
const TOKEN_SHAPE = new RegExp(
  `^[0-9A-Z]{26}\\.(?:${EMAIL_CATEGORIES.join('|')})\\.[A-Za-z0-9_-]{${MAC_CHARS}}$`,
);

const mac = (userId: string, category: EmailCategory): Buffer =>
  createHmac('sha256', key()).update(userId).update('\0').update(category).digest().subarray(0, MAC_BYTES);

/**
 * The path parameter: canonical tokens only (400 otherwise), so a token has exactly one spelling;
 * a well-shaped token with a wrong MAC is refused later with the same 200 as a good one.
 */
export const UnsubscribeParams = z.strictObject({
  token: z.string().check(z.maxLength(100), z.regex(TOKEN_SHAPE, 'Invalid token.')),
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
  if (!TOKEN_SHAPE.test(token)) return null;
  const [userId = '', category = '', given = ''] = token.split('.');
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
