/**
 * Account rules with no I/O: e-mail normalisation and the `.edu` rule, password bounds, the
 * e-mailed token format, token lifetimes and throttling numbers.
 */
import { createHash, randomBytes } from 'node:crypto';
import { expiresAfter } from '#lib/values/expiry.ts';

// ---------------------------------------------------------------------------------------------
// E-mail addresses
// ---------------------------------------------------------------------------------------------

/**
 * The uniqueness form of an address: trimmed, Unicode-normalised (NFKC) and lower-cased
 * (`A@Uni.EDU` is `a@uni.edu`; a Kelvin sign `\u212A` becomes `k`).
 */
export function normaliseEmail(raw: string): string {
  return raw.trim().normalize('NFKC').toLowerCase();
}

/** Printable ASCII only: SES refuses other addresses, and look-alike letters could share a key. */
export const isAsciiAddress = (raw: string): boolean => /^[\x21-\x7e]*$/.test(raw.trim());

export const EMAIL_MAX_LENGTH = 254;
const LOCAL_PART = /^[^\s@"(),:;<>[\\\]]{1,64}$/u;
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Whether an address (already normalised) is one we accept: `local@label(.label)*.edu` with a
 * non-empty label before `edu`. Refuses `a@x.edu.evil.com`, `a@evil.com`, `a@edu`, `a@.edu`.
 */
export function isEduAddress(normalised: string): boolean {
  if (normalised.length === 0 || normalised.length > EMAIL_MAX_LENGTH) return false;
  const at = normalised.lastIndexOf('@');
  if (at <= 0 || normalised.indexOf('@') !== at) return false;
  const local = normalised.slice(0, at);
  const labels = normalised.slice(at + 1).split('.');
  if (!LOCAL_PART.test(local)) return false;
  if (labels.length < 2 || labels.at(-1) !== 'edu') return false;
  return labels.every((l) => DOMAIN_LABEL.test(l));
}

/** Addresses in OWNER_EMAILS become owners (permissionType 2) when they confirm. */
export function isOwnerAddress(normalised: string, ownerEmails: readonly string[]): boolean {
  return ownerEmails.some((o) => normaliseEmail(o) === normalised);
}

// ---------------------------------------------------------------------------------------------
// Passwords
// ---------------------------------------------------------------------------------------------

/**
 * At most 72 bytes (security checklist item 12, part of the API contract; the limit dates from the
 * earlier bcrypt scheme, which read no more).
 */
export const PASSWORD_MIN_BYTES = 8;
export const PASSWORD_MAX_BYTES = 72;

export const utf8Length = (s: string): number => Buffer.byteLength(s, 'utf8');

export function passwordProblem(password: string): string | null {
  const n = utf8Length(password);
  if (n < PASSWORD_MIN_BYTES) return `Use at least ${PASSWORD_MIN_BYTES} bytes (characters).`;
  if (n > PASSWORD_MAX_BYTES) return `Use at most ${PASSWORD_MAX_BYTES} bytes (UTF-8).`;
  return null;
}

// ---------------------------------------------------------------------------------------------
// E-mailed tokens (confirmation and password reset)
// ---------------------------------------------------------------------------------------------

export type EmailTokenKind = 'confirm' | 'reset';

/** How long an e-mailed token is good for. */
export const TOKEN_LIFETIME_SECONDS: Record<EmailTokenKind, number> = {
  confirm: 24 * 3600,
  reset: 3600,
};

/** 256 random bits, base64url: 43 characters. */
export const EMAIL_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Only this hash is stored; the token itself exists only in the e-mail. */
export function hashEmailToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function newEmailToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashEmailToken(token) };
}

export function tokenExpiry(kind: EmailTokenKind, now: Date): { expiresAt: string; ttl: number } {
  const expires = now.getTime() + TOKEN_LIFETIME_SECONDS[kind] * 1000;
  return { expiresAt: new Date(expires).toISOString(), ttl: expiresAfter(expires) };
}

/** DynamoDB deletes expired items late (up to days), so every read checks the expiry itself. */
export function isExpired(expiresAt: string, now: Date): boolean {
  return !(expiresAt > now.toISOString());
}

// ---------------------------------------------------------------------------------------------
// Throttling (fixed windows counted in DynamoDB so they hold across Lambda instances; limits
// applied over a sliding window estimated from the current and previous window)
// ---------------------------------------------------------------------------------------------

export interface ThrottlePolicy {
  action: string;
  limit: number;
  windowSeconds: number;
}

export const THROTTLE = {
  /** failed logins (and failed current-password checks) per address */
  loginFailures: { action: 'login-failure', limit: 10, windowSeconds: 15 * 60 },
  /** failed logins from one known device (a device cookie of the address: lib/accounts/devices.ts) */
  deviceLoginFailures: { action: 'device-login-failure', limit: 10, windowSeconds: 15 * 60 },
  /** failed logins with one unlock link's token */
  unlockLoginFailures: { action: 'unlock-login-failure', limit: 5, windowSeconds: 15 * 60 },
  /** unlock e-mails per address: one per lockout window */
  unlockMail: { action: 'unlock-mail', limit: 1, windowSeconds: 15 * 60 },
  /** wrong second-factor codes per user (lib/accounts/totp.ts); each also counts as a login failure */
  totpFailures: { action: 'totp-failure', limit: 5, windowSeconds: 15 * 60 },
  /** confirmation e-mails (sign-up and resend) per address */
  confirmationMail: { action: 'confirm-mail', limit: 3, windowSeconds: 3600 },
  /** password reset e-mails per address */
  resetMail: { action: 'reset-mail', limit: 3, windowSeconds: 3600 },
} as const satisfies Record<string, ThrottlePolicy>;

/** The fixed window `now` falls in: start and end in epoch seconds. */
export function throttleWindow(policy: ThrottlePolicy, now: Date): { start: number; end: number } {
  const seconds = Math.floor(now.getTime() / 1000);
  const start = seconds - (seconds % policy.windowSeconds);
  return { start, end: start + policy.windowSeconds };
}

/** The window before the one `now` falls in. */
export function previousWindow(policy: ThrottlePolicy, now: Date): { start: number; end: number } {
  const { start } = throttleWindow(policy, now);
  return { start: start - policy.windowSeconds, end: start };
}

/**
 * How many attempts the current window may still count so that the sliding window (the last
 * `windowSeconds`, estimated as the previous window's count weighted by how much of it still
 * overlaps, plus the current window's count) stays within the limit. So a burst just before a
 * window edge still counts just after it, instead of the limit being had twice.
 */
export function allowedInCurrentWindow(policy: ThrottlePolicy, previousCount: number, now: Date): number {
  const { start } = throttleWindow(policy, now);
  const elapsed = now.getTime() / 1000 - start;
  const overlap = Math.max(0, (policy.windowSeconds - elapsed) / policy.windowSeconds);
  return Math.max(0, policy.limit - Math.ceil(previousCount * overlap));
}

/**
 * Seconds until the sliding window frees a slot again (at least 1): the Retry-After of a refused
 * attempt. A refusal means the current window holds exactly what allowedInCurrentWindow allows
 * (counts only grow up to it), so a slot frees when the previous window's weighted count steps
 * down by one; when the current window alone is full (no previous count to fade), after it ends
 * and its own weight in the next window has faded by one.
 */
export function retryAfterSeconds(policy: ThrottlePolicy, previousCount: number, now: Date): number {
  const { windowSeconds: length, limit } = policy;
  const { start, end } = throttleWindow(policy, now);
  const seconds = now.getTime() / 1000;
  const current = allowedInCurrentWindow(policy, previousCount, now);
  const fadeTo = limit - current - 1;
  const wait =
    fadeTo >= 0 && previousCount > 0
      ? start + length - (length * fadeTo) / previousCount - seconds
      : end - seconds + length - (length * (limit - 1)) / current;
  return Math.max(1, Math.ceil(wait));
}
