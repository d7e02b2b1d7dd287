/**
 * Password reset (by e-mailed single-use token, 1 hour) and password change (logged in). Both
 * bump the token version, so every older JWT of the user stops working at once, and both e-mail the
 * account's owner that the password changed (lib/mail/account-notices.ts, through the outbox).
 */

import { ulid } from 'ulid';
import type { UserRecord } from '#lib/db/records.ts';
import { getToken, putResetToken } from '#lib/db/tokens.ts';
import { changePasswordHash, getUser, getUserByEmail, resetPasswordWithToken } from '#lib/db/users.ts';
import { Forbidden, Unauthorized } from '#lib/errors.ts';
import { passwordChangedMail } from '#lib/mail/account-notices.ts';
import type { Mail } from '#lib/mail/send.ts';
import { mailOp, queueAccountMail } from '#lib/outbox/queue.ts';
import { InvalidEmailToken } from './errors.ts';
import { signToken } from './jwt.ts';
import { resetMail } from './mails.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { Principal } from './principal.ts';
import {
  EMAIL_TOKEN_PATTERN,
  hashEmailToken,
  isExpired,
  newEmailToken,
  normaliseEmail,
  THROTTLE,
  tokenExpiry,
} from './rules.ts';
import { startRefreshFamily } from './sessions.ts';
import { takeAllowance, takeAttempt } from './throttle.ts';

/**
 * Stores a reset token for an existing user and returns it, sending nothing (tests and tools;
 * `requestPasswordReset` is the public path).
 */
export async function createResetToken(
  userId: string,
  now: Date = new Date(),
  tokenVersion?: number,
): Promise<string> {
  const version = tokenVersion ?? (await getUser(userId))?.tokenVersion;
  if (version === undefined) throw new Error('no such user');
  const { token, hash } = newEmailToken();
  await putResetToken({
    type: 'token',
    kind: 'reset',
    tokenHash: hash,
    userId,
    tokenVersion: version,
    createdAt: now.toISOString(),
    ...tokenExpiry('reset', now),
  });
  return token;
}

/**
 * POST /api/auth/passwordResetRequest. Always the same (empty) answer and the same work whether the
 * address has an account or not: the per-address throttle, then one queued request (the outbox,
 * lib/outbox/queue.ts); the outbox consumer looks the address up and writes the e-mail
 * (`passwordResetMailFor`), so neither the answer nor its timing tells whether the account exists.
 */
export async function requestPasswordReset(emailAddress: string, now: Date = new Date()): Promise<void> {
  const email = normaliseEmail(emailAddress);
  if (!(await takeAllowance(THROTTLE.resetMail, email, now))) return;
  await queueAccountMail(ulid(now.getTime()), { action: 'password-reset', address: email }, now);
}

/**
 * The outbox's half of a reset request, written when it is sent: an existing account gets a
 * single-use link good for one hour (a retried send issues a new one); no account, no e-mail (null).
 */
export async function passwordResetMailFor(
  emailNormalised: string,
  now: Date = new Date(),
): Promise<Mail | null> {
  const user = await getUserByEmail(emailNormalised);
  if (!user) return null;
  const token = await createResetToken(user.id, now, user.tokenVersion);
  return resetMail(user.emailAddress, user.firstName, token);
}

/**
 * POST /api/auth/passwordReset. Consumes the token and sets the new password in one transaction;
 * unknown, altered, expired or used tokens are refused (two concurrent uses: exactly one wins), and
 * so is every token issued before the last reset or password change (the version moved on).
 */
export async function resetPassword(token: string, password: string, now: Date = new Date()): Promise<void> {
  if (!EMAIL_TOKEN_PATTERN.test(token)) throw new InvalidEmailToken();
  const tokenHash = hashEmailToken(token);
  const record = await getToken(tokenHash);
  if (
    record?.kind !== 'reset' ||
    isExpired(record.expiresAt, now) ||
    typeof record.tokenVersion !== 'number'
  ) {
    throw new InvalidEmailToken();
  }
  const user = await getUser(record.userId);
  if (!user) throw new InvalidEmailToken();
  const newHash = await hashPassword(password);
  const version = record.tokenVersion + 1;
  const mail = passwordChangedOp(user, version, now);
  if (!(await resetPasswordWithToken(tokenHash, user.id, record.tokenVersion, newHash, mail, now))) {
    throw new InvalidEmailToken();
  }
}

/**
 * The "your password was changed" e-mail (essential: sent whatever the preferences), written in the
 * same transaction as the change. Its id is the token version the change moves the account to.
 */
const passwordChangedOp = (user: UserRecord, tokenVersion: number, now: Date) =>
  mailOp(
    {
      id: `password.changed.${user.id}.${tokenVersion}`,
      recipientId: user.id,
      mail: passwordChangedMail(user.firstName, now),
    },
    now,
  );

/**
 * The caller's user record once `password` is theirs (the check before changing the password or
 * deleting the account): no such user is 401; a wrong password is 403 with the message `wrong` and
 * counts towards the login throttle of the address (then 429).
 */
export async function checkOwnPassword(
  userId: string,
  password: string,
  wrong: string,
  now: Date,
): Promise<UserRecord> {
  const user = await getUser(userId);
  if (!user) throw new Unauthorized('The token is missing, invalid or expired.', 'TOKEN_INVALID');
  const attempt = await takeAttempt(THROTTLE.loginFailures, user.emailNormalised, now);
  if (!(await verifyPassword(password, user.passwordHash))) {
    throw new Forbidden(wrong, 'WRONG_PASSWORD');
  }
  await attempt.succeeded();
  return user;
}

/**
 * POST /api/auth/updatePassword. The current password must be right (failures count towards the
 * login throttle of the address: 403, then 429); returns a fresh token, older ones stop working.
 */
export async function changePassword(
  principal: Principal,
  password: string,
  newPassword: string,
  now: Date = new Date(),
): Promise<{ token: string }> {
  const user = await checkOwnPassword(principal.userId, password, 'The current password is wrong.', now);
  const version = principal.tokenVersion + 1;
  const newHash = await hashPassword(newPassword);
  const mail = passwordChangedOp(user, version, now);
  if (!(await changePasswordHash(user.id, newHash, principal.tokenVersion, mail))) {
    throw new Unauthorized('The token is missing, invalid or expired.', 'TOKEN_INVALID');
  }
  const { token } = await signToken({ sub: user.id, role: user.permissionType, tv: version }, now);
  return { token };
}

/**
 * updatePassword as the web app calls it: the change above (every other session ends with the token
 * version), and a new refresh family for this session so it stays signed in.
 */
export async function changePasswordKeepingSession(
  principal: Principal,
  password: string,
  newPassword: string,
  now: Date = new Date(),
): Promise<{ token: string; refreshToken: string }> {
  const { token } = await changePassword(principal, password, newPassword, now);
  const user = await getUser(principal.userId);
  if (!user) throw new Unauthorized('The token is missing, invalid or expired.', 'TOKEN_INVALID');
  return { token, refreshToken: await startRefreshFamily(user, { mfa: principal.mfa === true }, now) };
}
