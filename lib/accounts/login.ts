/**
 * Login: password check (Argon2id), failure throttling per address (counted in DynamoDB), rehash
 * when the stored hash is of the earlier scheme or of other parameters than today's, and a JWT
 * carrying the user id, role and token version.
 */
import type { UserRecord } from '#lib/db/records.ts';
import { getUserByEmail, upgradePasswordHash } from '#lib/db/users.ts';
import { InvalidCredentials } from './errors.ts';
import { signToken } from './jwt.ts';
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import { normaliseEmail, THROTTLE } from './rules.ts';
import { type LoginInput, toUser, type User } from './schemas.ts';
import { type SignedIn, startRefreshFamily } from './sessions.ts';
import { takeAttempt } from './throttle.ts';

export interface Session {
  token: string;
  expiresAt: string;
  user: User;
}

/** A fresh JWT for a user as stored now. */
export async function issueSession(user: UserRecord, now: Date = new Date()): Promise<Session> {
  const { token, expiresAt } = await signToken(
    { sub: user.id, role: user.permissionType, tv: user.tokenVersion },
    now,
  );
  return { token, expiresAt, user: toUser(user) };
}

/**
 * POST /api/auth/login. An unknown address and a wrong password get the same 401 after the same
 * work (one password derivation runs either way). Every attempt is counted for the address before
 * the compare (an atomic conditional increment over a sliding window, given back on success): past the
 * limit the address gets 429 with Retry-After and no password is compared, even concurrently.
 */
export async function login(input: LoginInput, now: Date = new Date()): Promise<Session> {
  return issueSession(await checkLogin(input, now), now);
}

/** Login as the web app does it: the session and the first token of a new refresh family (the cookie). */
export async function loginWithRefresh(input: LoginInput, now: Date = new Date()): Promise<SignedIn> {
  const user = await checkLogin(input, now);
  const [session, refreshToken] = await Promise.all([
    issueSession(user, now),
    startRefreshFamily(user, { mfa: false }, now),
  ]);
  return { ...session, refreshToken };
}

/** The user whose address and password these are, after the throttle (401 or 429 otherwise). */
async function checkLogin(input: LoginInput, now: Date): Promise<UserRecord> {
  const email = normaliseEmail(input.emailAddress);
  const [attempt, user] = await Promise.all([
    takeAttempt(THROTTLE.loginFailures, email, now),
    getUserByEmail(email),
  ]);
  const ok = await verifyPassword(input.password, user?.passwordHash ?? null);
  // a suspended user is refused exactly like a wrong password (lib/moderation/suspension.ts)
  if (!ok || !user || (user as { suspended?: boolean }).suspended === true) throw new InvalidCredentials();
  await attempt.succeeded();
  if (needsRehash(user.passwordHash)) {
    await upgradePasswordHash(user.id, user.passwordHash, await hashPassword(input.password));
  }
  return user;
}
