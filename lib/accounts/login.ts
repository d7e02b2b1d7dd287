/**
 * Login: password check (Argon2id), failure throttling per address for unknown clients and per
 * device for known ones (counted in DynamoDB; lib/accounts/devices.ts), the second factor of
 * admins and owners who turned it on (lib/accounts/totp.ts), rehash when the stored hash is of the
 * earlier scheme or of other parameters than today's, and a JWT carrying the user id, role, token
 * version and whether a second factor was passed.
 */
import { ulid } from 'ulid';
import type { UserRecord } from '#lib/db/records.ts';
import { getUser, getUserByEmail, upgradePasswordHash } from '#lib/db/users.ts';
import { Unauthorized } from '#lib/errors.ts';
import type { Mail } from '#lib/mail/send.ts';
import { queueAccountMail } from '#lib/outbox/queue.ts';
import {
  deviceCookieName,
  knownDevice,
  newDeviceToken,
  newUnlockToken,
  validUnlockToken,
} from './devices.ts';
import { InvalidCredentials } from './errors.ts';
import { signToken } from './jwt.ts';
import { unlockMail } from './mails.ts';
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import type { Principal } from './principal.ts';
import { normaliseEmail, THROTTLE } from './rules.ts';
import { type LoginInput, toUser, type User } from './schemas.ts';
import { type SignedIn, startRefreshFamily } from './sessions.ts';
import { takeAllowance, takeAttempt } from './throttle.ts';
import { checkLoginCode, confirmTotp, hasTotp } from './totp.ts';

export interface Session {
  token: string;
  expiresAt: string;
  user: User;
}

/** A fresh JWT for a user as stored now; `mfa`: the session passed a second factor. */
export async function issueSession(user: UserRecord, now: Date = new Date(), mfa = false): Promise<Session> {
  const { token, expiresAt } = await signToken(
    { sub: user.id, role: user.permissionType, tv: user.tokenVersion, mfa },
    now,
  );
  return { token, expiresAt, user: toUser(user) };
}

/**
 * confirmTotp as the web app calls it: two-factor sign-in turns on, and since the code just
 * confirmed is a second factor, this session gets a token and a refresh family that carry `mfa`
 * (else an admin under REQUIRE_ADMIN_MFA would have to log in again to use what they just set up).
 */
export async function confirmTotpSignedIn(
  principal: Principal,
  code: string,
  now: Date = new Date(),
): Promise<{ recoveryCodes: string[]; token: string; refreshToken: string }> {
  const { recoveryCodes } = await confirmTotp(principal, code, now);
  const user = await getUser(principal.userId);
  if (!user) throw new Unauthorized('The token is missing, invalid or expired.', 'TOKEN_INVALID');
  const { token } = await issueSession(user, now, true);
  return { recoveryCodes, token, refreshToken: await startRefreshFamily(user, { mfa: true }, now) };
}

/**
 * POST /api/auth/login. An unknown address and a wrong password get the same 401 after the same
 * work (one password derivation runs either way). Every attempt is counted for the address before
 * the compare (an atomic conditional increment over a sliding window, given back on success): past the
 * limit the address gets 429 with Retry-After and no password is compared, even concurrently.
 */
export async function login(input: LoginInput, now: Date = new Date()): Promise<Session> {
  const { user, mfa } = await checkLogin(input, NO_COOKIES, now);
  return issueSession(user, now, mfa);
}

/** The cookies a login request carries, by name (the device cookie is one per account). */
export type CookieReader = (name: string) => string | undefined;
const NO_COOKIES: CookieReader = () => undefined;

/** A login's answer for a browser: the session, its refresh token, and the device cookie to (re)set. */
export interface BrowserSignIn extends SignedIn {
  device: { name: string; value: string };
}

/**
 * Login as the web app does it: the session, the first token of a new refresh family (the cookie),
 * and this browser's device cookie for the account (a new one each time: lib/accounts/devices.ts).
 */
export async function loginWithRefresh(
  input: LoginInput,
  cookies: CookieReader = NO_COOKIES,
  now: Date = new Date(),
): Promise<BrowserSignIn> {
  const { user, mfa } = await checkLogin(input, cookies, now);
  const [session, refreshToken] = await Promise.all([
    issueSession(user, now, mfa),
    startRefreshFamily(user, { mfa }, now),
  ]);
  const device = {
    name: deviceCookieName(user.emailNormalised),
    value: newDeviceToken(user.emailNormalised),
  };
  return { ...session, refreshToken, device };
}

/**
 * Counts a login attempt where it belongs: against the device when the request carries this
 * account's device cookie, against an unlock link's token when it carries one, else against the
 * address (every unknown client together). When unknown clients are locked out (the attempt that
 * takes the last slot), the account's owner gets one e-mail with an unlock link per lockout window.
 */
async function takeLoginAttempt(email: string, input: LoginInput, cookies: CookieReader, now: Date) {
  const device = knownDevice(email, cookies(deviceCookieName(email)));
  if (device) return takeAttempt(THROTTLE.deviceLoginFailures, `${email}#${device}`, now);
  const unlock = validUnlockToken(email, input.unlockToken, now);
  if (unlock) return takeAttempt(THROTTLE.unlockLoginFailures, `${email}#${unlock}`, now);
  const attempt = await takeAttempt(THROTTLE.loginFailures, email, now);
  // The attempt that fills the window locks unknown clients out (unless it turns out right): only
  // it queues the unlock e-mail, at most once per window, so a flood of refusals writes nothing more.
  if (attempt.last && (await takeAllowance(THROTTLE.unlockMail, email, now))) {
    await queueAccountMail(ulid(now.getTime()), { action: 'login-unlock', address: email }, now);
  }
  return attempt;
}

/** The outbox's half of an unlock e-mail, written when sent: the account gets a link good for an hour. */
export async function unlockMailFor(email: string, now: Date = new Date()): Promise<Mail | null> {
  const user = await getUserByEmail(email);
  return user ? unlockMail(user.emailAddress, user.firstName, newUnlockToken(email, now)) : null;
}

/**
 * The user whose address and password (and, with two-factor sign-in on, code) these are, after the
 * throttle (401 or 429 otherwise); `mfa` when a second factor was checked. A wrong code leaves the
 * attempt counted as a login failure (lib/accounts/totp.ts).
 */
async function checkLogin(
  input: LoginInput,
  cookies: CookieReader,
  now: Date,
): Promise<{ user: UserRecord; mfa: boolean }> {
  const email = normaliseEmail(input.emailAddress);
  const [attempt, user] = await Promise.all([
    takeLoginAttempt(email, input, cookies, now),
    getUserByEmail(email),
  ]);
  const ok = await verifyPassword(input.password, user?.passwordHash ?? null);
  // a suspended user is refused exactly like a wrong password (lib/moderation/suspension.ts)
  if (!ok || !user || user.suspended === true) throw new InvalidCredentials();
  if (hasTotp(user)) {
    if (input.code === undefined) await attempt.succeeded(); // the password was right: no failure
    await checkLoginCode(user, input.code, now);
  }
  await attempt.succeeded();
  if (needsRehash(user.passwordHash)) {
    await upgradePasswordHash(user.id, user.passwordHash, await hashPassword(input.password));
  }
  return { user, mfa: hasTotp(user) };
}
