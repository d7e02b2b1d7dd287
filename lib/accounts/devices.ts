/**
 * Device cookies for login throttling (OWASP, "Slow Down Online Guessing Attacks with Device
 * Cookies"): a stranger's wrong passwords lock only strangers out of an account.
 *
 * After a successful login the browser gets a device cookie for that account: `<nonce>.<mac>`, 128
 * random bits and an HMAC-SHA256 of the address and the nonce under a key derived from JWT_SECRET,
 * so nobody can make one, and one made for another account does not count here. Its name carries a
 * keyed hash of the address (`cb_device_<16 characters>`), so one browser holds one per account.
 * Nothing is stored: the MAC is the proof.
 *
 * A login attempt is counted against:
 * - a known device (a valid cookie for this address): that device alone, 10 failures per 15 minutes
 *   (`device-login-failure`, subject `<address>#<nonce>`). The address's own count is not touched, so
 *   a stranger's lockout never stops it;
 * - an unlock link's token (below): that token alone, 5 failures per 15 minutes;
 * - any other client: the address, as before (10 failures per 15 minutes, then 429 for every unknown
 *   client, the right password included). The first refusal of a window queues one e-mail with an
 *   unlock link (`unlock-mail`, once per 15 minutes per address).
 *
 * The unlock link (`APP_URL/login?unlock=<token>`) is a login with a token: the web app's login form
 * sends it as `unlockToken` with the address and password. The token is `<expiry>.<mac>` (good for
 * an hour, bound to the address), so a person who reads the mail can sign in from a new browser
 * during a lockout; the password is still needed, and a successful login gives that browser its
 * device cookie. Nothing is stored for it either.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { derivedKey } from '#lib/config.ts';

/** A device cookie lives a year; each successful login renews it. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;
/** How long an unlock link works. */
export const UNLOCK_TOKEN_SECONDS = 3600;

/** A key of its own for device cookies and unlock links, derived from JWT_SECRET. */
const key = (): Buffer => derivedKey('campus-books device-cookie key v1');

const mac = (...parts: string[]): string =>
  createHmac('sha256', key()).update(parts.join('\u0000')).digest('base64url');

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The device cookie's name for an address (normalised): one per account in a browser. */
export const deviceCookieName = (email: string): string => `cb_device_${mac('name', email).slice(0, 16)}`;

/** A new device cookie's value for an address. */
export function newDeviceToken(email: string): string {
  const nonce = randomBytes(16).toString('base64url');
  return `${nonce}.${mac('device', email, nonce)}`;
}

/** The device's nonce when `value` is a device cookie this service made for this address, else null. */
export function knownDevice(email: string, value: string | undefined): string | null {
  const match = value === undefined ? null : /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match?.[1] || !match[2]) return null;
  return sameText(mac('device', email, match[1]), match[2]) ? match[1] : null;
}

/** An unlock link's token for an address: `<expiry epoch seconds>.<mac>`. */
export function newUnlockToken(email: string, now: Date): string {
  const expiry = String(Math.floor(now.getTime() / 1000) + UNLOCK_TOKEN_SECONDS);
  return `${expiry}.${mac('unlock', email, expiry)}`;
}

/** The token's MAC (its throttle subject) when it is a live unlock token of this address, else null. */
export function validUnlockToken(email: string, token: string | undefined, now: Date): string | null {
  const match = token === undefined ? null : /^(\d{10})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match?.[1] || !match[2]) return null;
  if (Number(match[1]) * 1000 <= now.getTime()) return null;
  return sameText(mac('unlock', email, match[1]), match[2]) ? match[2] : null;
}
