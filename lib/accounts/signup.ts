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
  getSpentToken,
  getToken,
  latestPendingSignup,
  type PendingSignupRecord,
  putPendingSignup,
  removeOlderPendingSignups,
  replacePendingSignup,
} from '#lib/db/tokens.ts';
import { createUserFromSignup, getUserByEmail, getUserIdByEmail } from '#lib/db/users.ts';
import type { Mail } from '#lib/mail/send.ts';
import { countEvent } from '#lib/metrics.ts';
import { queueAccountMail } from '#lib/outbox/queue.ts';
import { campusOfEmail } from '#lib/values/campus.ts';
import { InvalidEmailToken, WrongSignupPassword } from './errors.ts';
import { confirmationMail, existingAccountMail } from './mails.ts';
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

async function storePendingSignup(
  input: SignupInput,
  passwordHash: string,
  now: Date,
): Promise<{ token: string; tokenHash: string }> {
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
  return { token, tokenHash: record.tokenHash };
}

/**
 * Stores a pending sign-up and returns its token, sending nothing (tests and tools; `signup` is the
 * public path).
 */
export async function createPendingSignup(input: SignupInput, now: Date = new Date()): Promise<string> {
  const valid = SignupBody.parse(input);
  return (await storePendingSignup(valid, await hashPassword(valid.password), now)).token;
}

/**
 * POST /api/auth/signup. The same (empty) answer whatever happens: a new address gets a pending
 * sign-up and a confirmation e-mail, an existing account's owner a "you already have an account"
 * e-mail, and past the e-mail throttle nothing is sent. The password is hashed in every case, so
 * the answer also takes about the same time. The e-mail is queued in the outbox (issue 19: no
 * request path sends e-mail); the outbox consumer writes it, with a fresh link (`confirmationMailFor`).
 */
export async function signup(input: SignupInput, now: Date = new Date()): Promise<void> {
  const email = normaliseEmail(input.emailAddress);
  const [passwordHash, existing] = await Promise.all([hashPassword(input.password), getUserByEmail(email)]);
  if (!(await takeAllowance(THROTTLE.confirmationMail, email, now))) return;
  if (existing) {
    await queueAccountMail(ulid(now.getTime()), { action: 'existing-account', address: email }, now);
    return;
  }
  const { tokenHash } = await storePendingSignup(input, passwordHash, now);
  countEvent('SignUps');
  await queueAccountMail(ulid(now.getTime()), { action: 'confirm-signup', address: email, tokenHash }, now);
}

/**
 * POST /api/auth/resendConfirmation. Always the same (empty) answer and the same work for every
 * address: the per-address throttle, then one queued request; the outbox consumer does the rest
 * (`confirmationMailFor`), so the timing tells nothing about the address.
 */
export async function resendConfirmation(emailAddress: string, now: Date = new Date()): Promise<void> {
  const email = normaliseEmail(emailAddress);
  if (!(await takeAllowance(THROTTLE.confirmationMail, email, now))) return;
  await queueAccountMail(ulid(now.getTime()), { action: 'resend-confirmation', address: email }, now);
}

/** The "you already have an account" e-mail of an address, or null when it has no account. */
export async function existingAccountMailFor(email: string): Promise<Mail | null> {
  const existing = await getUserByEmail(email);
  return existing ? existingAccountMail(existing.emailAddress, existing.firstName) : null;
}

/**
 * The outbox's half of a sign-up or a resend, written when it is sent: the pending, unexpired
 * sign-up gets a fresh link (the previous link stops working, and only the new token's hash is
 * stored); an address that already has an account gets the "you already have an account" e-mail;
 * anything else nothing (null). `tokenHash` names the sign-up that asked; when a send is retried,
 * or a newer sign-up replaced it, the address's newest pending sign-up is the one.
 */
export async function confirmationMailFor(
  email: string,
  now: Date = new Date(),
  tokenHash?: string,
): Promise<Mail | null> {
  const [named, latest, userId] = await Promise.all([
    tokenHash ? getToken(tokenHash) : null,
    latestPendingSignup(email),
    getUserIdByEmail(email),
  ]);
  if (userId) return existingAccountMailFor(email);
  const pending = named?.kind === 'confirm' ? named : latest;
  if (!pending || isExpired(pending.expiresAt, now)) return null;
  const { token, record } = pendingRecord(pending.signup, now);
  if (!(await replacePendingSignup(pending.tokenHash, record))) return null;
  return confirmationMail(pending.signup.emailAddress, pending.signup.firstName, token);
}

/**
 * What became of a sign-up link that no longer works: `confirmed` (it confirmed the account),
 * `replaced` (a newer link was sent), or `invalid` (unknown, altered or expired). Reads only.
 */
export async function spentLinkState(token: string): Promise<'confirmed' | 'replaced' | 'invalid'> {
  if (!EMAIL_TOKEN_PATTERN.test(token)) return 'invalid';
  return (await getSpentToken(hashEmailToken(token))) ?? 'invalid';
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
