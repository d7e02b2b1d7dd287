/**
 * Two-factor sign-in (TOTP, RFC 6238: SHA-1, 6 digits, 30-second steps, the `otpauth` library) for
 * admins and owners, and its 10 single-use recovery codes.
 *
 * - enrollTotp: a new secret, kept pending on the user item (encrypted) and answered once, as an
 *   `otpauth://` URI (the QR code) and as text. Calling it again replaces the pending secret.
 * - confirmTotp: a code of the pending secret turns it on, and answers 10 recovery codes; only
 *   their SHA-256 (salted with the user id) is stored. After this no route ever answers the secret.
 * - login: once on, the password alone answers 401 MFA_REQUIRED; a code (or a recovery code) with
 *   it signs in with `mfa: true` in the token and its refresh family. A code is good for one use:
 *   the time step it was accepted for is stored, and a code of that step or an earlier one is
 *   refused (one conditional UpdateItem, so two racing requests cannot both use it). Wrong codes
 *   count as login failures of the address and, at most 5 per 15 minutes, per user (then 429).
 * - disableTotp: the password and a code (or recovery code) turn it off.
 *
 * The secret is encrypted with AES-256-GCM under a key derived from JWT_SECRET (a Secrets Manager
 * secret on deployed stages), so a copy of the table alone (a backup, an export) does not hold it.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { derivedKey } from '#lib/config.ts';
import type { UserRecord } from '#lib/db/records.ts';
import {
  activateTotp,
  claimTotpStep,
  putPendingTotp,
  removeTotp,
  spendRecoveryCode,
  type TotpState,
} from '#lib/db/totp.ts';
import { getUser } from '#lib/db/users.ts';
import { BadRequest, Conflict, Forbidden, Unauthorized } from '#lib/errors.ts';
import { verifyPassword } from './passwords.ts';
import type { Principal } from './principal.ts';
import { THROTTLE } from './rules.ts';
import { takeAttempt } from './throttle.ts';

export const TOTP_ISSUER = 'Campus Books';
const PERIOD_SECONDS = 30;
/** Codes of the step before and after now are accepted too (clock drift, typing time). */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

export type UserWithTotp = UserRecord & TotpState;

// ---------------------------------------------------------------------------------------------
// The secret at rest
// ---------------------------------------------------------------------------------------------

/** A key of its own for TOTP secrets, derived from JWT_SECRET (never the signing key itself). */
const encryptionKey = (): Buffer => derivedKey('campus-books totp-secret key v1');

/** `v1.<iv>.<ciphertext>.<tag>` (base64url) of a base32 secret. */
export function encryptSecret(base32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(), iv);
  const body = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
  return ['v1', iv, body, cipher.getAuthTag()]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function decryptSecret(stored: string): string {
  const [version, iv, body, tag] = stored.split('.');
  if (version !== 'v1' || !iv || !body || !tag) throw new Error('unknown TOTP secret format');
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

const totpOf = (base32: string, label: string): TOTP =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(base32),
  });

/** The time step a code is valid for, or null: a 6-digit code of the secret within the window. */
export function stepOfCode(base32: string, code: string, now: Date): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(base32, 'check').validate({ token, timestamp: now.getTime(), window: WINDOW });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

// ---------------------------------------------------------------------------------------------
// Recovery codes
// ---------------------------------------------------------------------------------------------

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `xxxxx-xxxxx` from an alphabet without look-alikes (about 49 bits each). */
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** The stored form of a recovery code: SHA-256 of the user id and the code without case, spaces or dashes. */
export const hashRecoveryCode = (userId: string, code: string): string =>
  createHash('sha256')
    .update(`${userId}:${code.toLowerCase().replace(/[^a-z0-9]/g, '')}`, 'utf8')
    .digest('hex');

const looksLikeRecoveryCode = (code: string): boolean =>
  /^[a-z0-9]{10}$/.test(code.toLowerCase().replace(/[\s-]/g, ''));

// ---------------------------------------------------------------------------------------------
// The routes' work
// ---------------------------------------------------------------------------------------------

const isStaff = (permissionType: number): boolean => permissionType >= 1;

async function currentUser(principal: Principal): Promise<UserWithTotp> {
  const user = await getUser(principal.userId);
  if (!user) throw new Unauthorized('The token is missing, invalid or expired.', 'TOKEN_INVALID');
  return user as UserWithTotp;
}

export const hasTotp = (user: UserRecord): boolean => typeof (user as UserWithTotp).totpSecret === 'string';

/** POST /api/auth/enrollTotp: a pending secret for the caller (an admin or owner). */
export async function enrollTotp(principal: Principal): Promise<{ uri: string; secret: string }> {
  if (!isStaff(principal.permissionType)) {
    throw new Forbidden('Two-factor sign-in is for admins and owners.', 'ROLE_REQUIRED');
  }
  const user = await currentUser(principal);
  if (hasTotp(user))
    throw new Conflict('Two-factor sign-in is already on. Turn it off first.', undefined, 'TOTP_ACTIVE');
  const base32 = new Secret({ size: 20 }).base32;
  if (!(await putPendingTotp(user.id, encryptSecret(base32)))) {
    throw new Conflict('Two-factor sign-in is already on. Turn it off first.', undefined, 'TOTP_ACTIVE');
  }
  return { uri: totpOf(base32, user.emailAddress).toString(), secret: base32 };
}

const wrongCode = (field = 'code') =>
  new BadRequest(
    'That code is not right. Enter the current 6-digit code of your authenticator app.',
    [{ field, message: 'not a current code' }],
    'TOTP_CODE_INVALID',
  );

/** POST /api/auth/confirmTotp: a code of the pending secret turns it on; the 10 recovery codes, once. */
export async function confirmTotp(
  principal: Principal,
  code: string,
  now: Date = new Date(),
): Promise<{ recoveryCodes: string[] }> {
  const user = await currentUser(principal);
  if (hasTotp(user)) throw new Conflict('Two-factor sign-in is already on.', undefined, 'TOTP_ACTIVE');
  if (!user.totpPending) {
    throw new Conflict(
      'Start with enrollTotp: there is no secret waiting to be confirmed.',
      undefined,
      'TOTP_NOT_PENDING',
    );
  }
  const step = stepOfCode(decryptSecret(user.totpPending), code, now);
  if (step === null) throw wrongCode();
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const hashes = recoveryCodes.map((c) => hashRecoveryCode(user.id, c));
  if (!(await activateTotp(user.id, user.totpPending, step, hashes))) {
    throw new Conflict(
      'The secret changed meanwhile (enrolled again?). Start again.',
      undefined,
      'TOTP_NOT_PENDING',
    );
  }
  return { recoveryCodes };
}

/**
 * Whether `code` is a second factor of the user, using it up: a current TOTP code not used before
 * (its step is stored) or an unused recovery code (taken out of the set).
 */
export async function spendSecondFactor(user: UserWithTotp, code: string, now: Date): Promise<boolean> {
  if (!user.totpSecret) return false;
  const step = stepOfCode(decryptSecret(user.totpSecret), code, now);
  if (step !== null) return claimTotpStep(user.id, user.totpSecret, step);
  if (!looksLikeRecoveryCode(code)) return false;
  return spendRecoveryCode(user.id, hashRecoveryCode(user.id, code));
}

/**
 * The second step of a login whose password was right, for a user with TOTP on: no code -> 401
 * MFA_REQUIRED (the web app shows its code field); a wrong, used or replayed code -> 401
 * MFA_CODE_INVALID, counted per user (5 per 15 minutes, then 429) on top of the caller's own
 * login-failure count, which the caller keeps.
 */
export async function checkLoginCode(user: UserWithTotp, code: string | undefined, now: Date): Promise<void> {
  if (code === undefined || code.trim() === '') {
    throw new Unauthorized(
      'Enter the 6-digit code from your authenticator app (or one of your recovery codes).',
      'MFA_REQUIRED',
    );
  }
  const attempt = await takeAttempt(THROTTLE.totpFailures, user.id, now);
  if (!(await spendSecondFactor(user, code, now))) {
    throw new Unauthorized(
      'That code is not right or was used already. Enter the current code, or a recovery code you have not used.',
      'MFA_CODE_INVALID',
    );
  }
  await attempt.succeeded();
}

/** POST /api/auth/disableTotp: the password (counted as login failures) and a code turn TOTP off. */
export async function disableTotp(
  principal: Principal,
  input: { password: string; code: string },
  now: Date = new Date(),
): Promise<{ enabled: false }> {
  const user = await currentUser(principal);
  if (!hasTotp(user)) throw new Conflict('Two-factor sign-in is not on.', undefined, 'TOTP_NOT_ACTIVE');
  const attempt = await takeAttempt(THROTTLE.loginFailures, user.emailNormalised, now);
  if (!(await verifyPassword(input.password, user.passwordHash))) {
    throw new Forbidden('The current password is wrong.', 'WRONG_PASSWORD');
  }
  const codeAttempt = await takeAttempt(THROTTLE.totpFailures, user.id, now);
  if (!(await spendSecondFactor(user, input.code, now))) throw wrongCode();
  await Promise.all([attempt.succeeded(), codeAttempt.succeeded()]);
  if (!(await removeTotp(user.id, user.totpSecret as string))) {
    throw new Conflict('Two-factor sign-in is not on.', undefined, 'TOTP_NOT_ACTIVE');
  }
  return { enabled: false };
}
