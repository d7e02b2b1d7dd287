/**
 * Sign-up, resending the confirmation e-mail, and confirmation.
 *
 * A sign-up is stored as a pending token item (kind `confirm`, only the token's SHA-256 stored,
 * 24-hour expiry); a new sign-up of the same address replaces it. The user exists only once the
 * owner of the address confirms with the token AND the password chosen at sign-up (so a sign-up
 * of someone else's address, or a mail scanner following the link, never yields an account),
 * created in one transaction that consumes the token and claims the e-mail address.
 */

import { ulid } from 'ulid';
import { config } from '#lib/config.ts';
import type { UserRecord } from '#lib/db/records.ts';
import {
  getToken,
  latestPendingSignup,
  type PendingSignupRecord,
  putPendingSignup,
  removeOlderPendingSignups,
  replacePendingSignup,
} from '#lib/db/tokens.ts';
import { createUserFromSignup, getUserByEmail, getUserIdByEmail } from '#lib/db/users.ts';
import { countEvent } from '#lib/metrics.ts';
import { campusOfEmail } from './campus.ts';
import { InvalidEmailToken, WrongSignupPassword } from './errors.ts';
import { queueAccountMail } from './mail-requests.ts';
import { confirmationMail, deliver, existingAccountMail } from './mails.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import {
  EMAIL_TOKEN_PATTERN,
  hashEmailToken,
  isExpired,
  isOwnerAddress,
  newEmailToken,
  normaliseEmail,
  THROTTLE,
  tokenExpiry,
} from './rules.ts';
import { SignupBody, type SignupInput } from './schemas.ts';
import { takeAllowance, takeAttempt } from './throttle.ts';

function pendingRecord(
  signup: PendingSignupRecord['signup'],
  now: Date,
): { token: string; record: PendingSignupRecord } {
  const { token, hash } = newEmailToken();
  return {
    token,
    record: {
      type: 'token',
      kind: 'confirm',
      tokenHash: hash,
      createdAt: now.toISOString(),
      ...tokenExpiry('confirm', now),
      signup,
    },
  };
}

async function storePendingSignup(input: SignupInput, passwordHash: string, now: Date): Promise<string> {
  const { token, record } = pendingRecord(
    {
      emailAddress: input.emailAddress,
      emailNormalised: normaliseEmail(input.emailAddress),
      passwordHash,
      firstName: input.firstName,
      lastName: input.lastName,
      university: input.university,
      campusMailbox: input.campusMailbox,
      paymentUsername: input.paymentUsername,
    },
    now,
  );
  await putPendingSignup(record);
  await removeOlderPendingSignups(record);
  return token;
}

/**
 * Stores a pending sign-up and returns its token, sending nothing (tests and tools; `signup` is the
 * public path).
 */
export async function createPendingSignup(input: SignupInput, now: Date = new Date()): Promise<string> {
  const valid = SignupBody.parse(input);
  return storePendingSignup(valid, await hashPassword(valid.password), now);
}

/**
 * POST /api/auth/signup. The same (empty) answer whatever happens: a new address gets a
 * confirmation e-mail, an existing account's owner gets a "you already have an account" e-mail,
 * and past the e-mail throttle nothing is sent. The password is hashed in every case, so the
 * answer also takes about the same time.
 */
export async function signup(input: SignupInput, now: Date = new Date()): Promise<void> {
  const email = normaliseEmail(input.emailAddress);
  const [passwordHash, existing] = await Promise.all([hashPassword(input.password), getUserByEmail(email)]);
  if (!(await takeAllowance(THROTTLE.confirmationMail, email, now))) return;
  if (existing) {
    await deliver(existingAccountMail(existing.emailAddress, existing.firstName), 'existing-account');
    return;
  }
  const token = await storePendingSignup(input, passwordHash, now);
  countEvent('SignUps');
  await deliver(confirmationMail(input.emailAddress, input.firstName, token), 'confirmation');
}

/**
 * POST /api/auth/resendConfirmation. Always the same (empty) answer and the same work for every
 * address: the per-address throttle, then one stored request; the stream consumer does the rest
 * (`sendConfirmationAgain`), so the timing tells nothing about the address.
 */
export async function resendConfirmation(emailAddress: string, now: Date = new Date()): Promise<void> {
  const email = normaliseEmail(emailAddress);
  if (!(await takeAllowance(THROTTLE.confirmationMail, email, now))) return;
  await queueAccountMail('resend-confirmation', email, now);
}

/**
 * The stream consumer's half of a resend: the newest pending, unexpired sign-up of the address gets
 * a fresh link (the previous link stops working); an address that already has an account gets the
 * "you already have an account" e-mail; anything else nothing.
 */
export async function sendConfirmationAgain(email: string, now: Date = new Date()): Promise<void> {
  const [pending, userId] = await Promise.all([latestPendingSignup(email), getUserIdByEmail(email)]);
  if (userId) {
    const existing = await getUserByEmail(email);
    if (existing)
      await deliver(existingAccountMail(existing.emailAddress, existing.firstName), 'existing-account');
    return;
  }
  if (!pending || isExpired(pending.expiresAt, now)) return;
  const { token, record } = pendingRecord(pending.signup, now);
  if (!(await replacePendingSignup(pending.tokenHash, record))) return;
  await deliver(
    confirmationMail(pending.signup.emailAddress, pending.signup.firstName, token),
    'confirmation',
  );
}

/**
 * The pending, unexpired sign-up of a token, or null (unknown, altered, expired or used). Reads
 * only: following the e-mailed link must change nothing.
 */
export async function pendingSignupFor(
  token: string,
  now: Date = new Date(),
): Promise<PendingSignupRecord | null> {
  if (!EMAIL_TOKEN_PATTERN.test(token)) return null;
  const record = await getToken(hashEmailToken(token));
  if (record?.kind !== 'confirm' || isExpired(record.expiresAt, now)) return null;
  return record;
}

/**
 * Confirms a sign-up: the password must be the one chosen at sign-up (else WrongSignupPassword,
 * counted like a failed login, and the token stays usable). The user is then created from the
 * pending sign-up, atomically with consuming the token and claiming the address. Unknown,
 * altered, expired or used tokens, and addresses taken meanwhile, are all refused the same way
 * (InvalidEmailToken). OWNER_EMAILS addresses become owners.
 */
export async function confirmSignup(
  token: string,
  password: string,
  now: Date = new Date(),
): Promise<UserRecord> {
  const pending = await pendingSignupFor(token, now);
  if (!pending) throw new InvalidEmailToken();
  const { signup: s } = pending;
  const attempt = await takeAttempt(THROTTLE.loginFailures, s.emailNormalised, now);
  if (!(await verifyPassword(password, s.passwordHash))) throw new WrongSignupPassword();
  await attempt.succeeded();
  const user: UserRecord = {
    type: 'user',
    id: ulid(now.getTime()),
    emailAddress: s.emailAddress,
    emailNormalised: s.emailNormalised,
    firstName: s.firstName,
    lastName: s.lastName,
    university: s.university,
    campus: campusOfEmail(s.emailNormalised),
    campusMailbox: s.campusMailbox,
    paymentUsername: s.paymentUsername,
    permissionType: isOwnerAddress(s.emailNormalised, config.OWNER_EMAILS) ? 2 : 0,
    createdAt: now.toISOString(),
    passwordHash: s.passwordHash,
    tokenVersion: 0,
  };
  if ((await createUserFromSignup(user, pending.tokenHash, now)) !== 'created') throw new InvalidEmailToken();
  return user;
}
