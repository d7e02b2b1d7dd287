/**
 * Staying signed in: one refresh family per login, its token in an HttpOnly cookie (lib/http/cookies.ts).
 *
 * A refresh token is `<familyId>.<generation>.<mac>`: 128 random bits naming the family, the
 * generation, and an HMAC-SHA256 of both under a key derived from JWT_SECRET. Only its SHA-256 is
 * stored (lib/db/sessions.ts). The MAC tells a token this service issued from a forged one, so only a
 * genuine old token counts as a reuse (nobody can log a user out by sending garbage), and it makes the
 * token of a generation computable again by the service alone (the grace below).
 *
 * A refresh: GetItem family, GetItem user, conditional UpdateItem (3 calls).
 * - the current token: rotated (generation + 1), the sliding expiry restarts, a new access token;
 *   within REFRESH_GRACE_SECONDS of the last rotation by a refresh, answered as it is (2 calls), so
 *   a burst of page loads rotates once and a cookie never falls two generations behind.
 *   (Found by QA: tapping through pages quickly while each load refreshed signed everyone out.)
 * - the token just replaced, within REFRESH_GRACE_SECONDS of its rotation: two tabs refreshed with
 *   the same cookie at once. The loser gets the winner's new token (recomputed, not stored) and an
 *   access token, nothing is written (2 calls), so a benign race logs nobody out.
 * - any older genuine token, or the previous one after the grace: a reuse. The family is deleted and
 *   the user's token version bumped, so every access token and every family of the user fails at
 *   once (401 REFRESH_REUSED): a stolen token logs the thief and the victim out, never in.
 * - a family whose user is gone (deleted), or whose token version (password change or reset,
 *   suspension, logout everywhere) or role (makeAdmin, revokeAdmin) moved on since login: deleted, 401.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { config, derivedKey } from '#lib/config.ts';
import type { UserRecord } from '#lib/db/records.ts';
import {
  deleteRefreshFamily,
  getRefreshFamily,
  putRefreshFamily,
  type RefreshFamilyRecord,
  rotateRefreshFamily,
} from '#lib/db/sessions.ts';
import { bumpTokenVersion, getUser } from '#lib/db/users.ts';
import { Unauthorized } from '#lib/errors.ts';
import { expiresAfter } from '#lib/values/expiry.ts';
import { signToken } from './jwt.ts';
import { toUser, type User } from './schemas.ts';

/** How long the token just replaced still answers the same new token (two tabs racing). */
export const REFRESH_GRACE_SECONDS = 30;

/** The refresh token's shape: family id (22), generation, MAC (43). */
export const REFRESH_TOKEN_PATTERN = /^([A-Za-z0-9_-]{22})\.(0|[1-9][0-9]{0,8})\.([A-Za-z0-9_-]{43})$/;

/** A key of its own for refresh MACs, derived from JWT_SECRET (never the signing key itself). */
const macKey = (): Buffer => derivedKey('campus-books refresh-token key v1');

const macOf = (familyId: string, generation: number): string =>
  createHmac('sha256', macKey()).update(`${familyId}.${generation}`).digest('base64url');

const tokenOf = (familyId: string, generation: number): string =>
  `${familyId}.${generation}.${macOf(familyId, generation)}`;

export const hashRefreshToken = (token: string): string =>
  createHash('sha256').update(token, 'utf8').digest('hex');

/** The lifetime of a refresh family from its last use, in seconds. */
export const refreshLifetimeSeconds = (): number => config.REFRESH_TTL_DAYS * 24 * 3600;

function expiryFrom(now: Date): { expiresAt: string; ttl: number } {
  const expires = now.getTime() + refreshLifetimeSeconds() * 1000;
  return { expiresAt: new Date(expires).toISOString(), ttl: expiresAfter(expires) };
}

/** A session as login and refresh answer it: the access token in the body, the refresh token for the cookie. */
export interface SignedIn {
  token: string;
  expiresAt: string;
  user: User;
  refreshToken: string;
}

async function accessFor(user: UserRecord, mfa: boolean, now: Date) {
  return signToken({ sub: user.id, role: user.permissionType, tv: user.tokenVersion, mfa }, now);
}

/** Starts a refresh family for a user as stored now (login, password change); answers its first token. */
export async function startRefreshFamily(
  user: UserRecord,
  options: { mfa: boolean },
  now: Date = new Date(),
): Promise<string> {
  const familyId = randomBytes(16).toString('base64url');
  const token = tokenOf(familyId, 0);
  await putRefreshFamily({
    type: 'refreshFamily',
    familyId,
    userId: user.id,
    generation: 0,
    tokenHash: hashRefreshToken(token),
    rotatedAt: now.toISOString(),
    createdAt: now.toISOString(),
    ...expiryFrom(now),
    tokenVersion: user.tokenVersion,
    permissionType: user.permissionType,
    mfa: options.mfa,
  });
  return token;
}

export class RefreshRefused extends Unauthorized {
  constructor(code: 'REFRESH_INVALID' | 'REFRESH_REUSED' = 'REFRESH_INVALID') {
    super(
      code === 'REFRESH_REUSED'
        ? 'This sign-in was used twice, so every session of the account was signed out. Log in again.'
        : 'The session has ended. Log in again.',
      code,
    );
  }
}

/** A genuine token's parts, or null for anything this service did not issue. */
function parseRefreshToken(token: string | undefined): { familyId: string; generation: number } | null {
  const match = token === undefined ? null : REFRESH_TOKEN_PATTERN.exec(token);
  if (!match?.[1] || !match[2] || !match[3]) return null;
  const familyId = match[1];
  const generation = Number(match[2]);
  const expected = Buffer.from(macOf(familyId, generation));
  const given = Buffer.from(match[3]);
  return expected.length === given.length && timingSafeEqual(expected, given)
    ? { familyId, generation }
    : null;
}

const isLive = (family: RefreshFamilyRecord, now: Date): boolean => family.expiresAt > now.toISOString();

const userStillMatches = (family: RefreshFamilyRecord, user: UserRecord | null): user is UserRecord =>
  user !== null &&
  user.tokenVersion === family.tokenVersion &&
  user.permissionType === family.permissionType &&
  user.suspended !== true;

/** The reuse of a genuine older token: the family goes and every session of the user with it. */
async function revokeForReuse(family: RefreshFamilyRecord): Promise<never> {
  await deleteRefreshFamily(family.familyId);
  await bumpTokenVersion(family.userId);
  throw new RefreshRefused('REFRESH_REUSED');
}

/** POST /api/auth/refresh: a new access token and the family's next refresh token (see the module comment). */
export async function refreshSession(token: string | undefined, now: Date = new Date()): Promise<SignedIn> {
  const parsed = parseRefreshToken(token);
  if (!parsed) throw new RefreshRefused();
  const family = await getRefreshFamily(parsed.familyId);
  if (!family || !isLive(family, now)) throw new RefreshRefused();
  const user = await getUser(family.userId);
  if (!userStillMatches(family, user)) {
    await deleteRefreshFamily(family.familyId);
    throw new RefreshRefused();
  }
  if (parsed.generation === family.generation && hashRefreshToken(token as string) === family.tokenHash) {
    // rotated by a refresh moments ago: a burst of page loads (a student tapping through pages on a
    // slow phone) answers the same token instead of rotating again, so a late answer that sets an
    // older cookie is never two generations behind (which would count as a reuse)
    if (family.generation > 0 && now.getTime() - Date.parse(family.rotatedAt) < REFRESH_GRACE_SECONDS * 1000)
      return {
        ...(await accessFor(user, family.mfa, now)),
        user: toUser(user),
        refreshToken: token as string,
      };
    const next = tokenOf(family.familyId, family.generation + 1);
    const rotated = await rotateRefreshFamily(family.familyId, family, {
      generation: family.generation + 1,
      tokenHash: hashRefreshToken(next),
      rotatedAt: now.toISOString(),
      ...expiryFrom(now),
    });
    if (rotated)
      return { ...(await accessFor(user, family.mfa, now)), user: toUser(user), refreshToken: next };
    // another tab won the same rotation a moment ago: answer as its loser, from the family as it is now
    const moved = await getRefreshFamily(family.familyId);
    if (!moved) throw new RefreshRefused();
    return answerWithinGrace(moved, parsed.generation, user, now);
  }
  return answerWithinGrace(family, parsed.generation, user, now);
}

/** The loser of a race (the token just replaced, shortly after): the same new token; otherwise a reuse. */
async function answerWithinGrace(
  family: RefreshFamilyRecord,
  generation: number,
  user: UserRecord,
  now: Date,
): Promise<SignedIn> {
  const sinceRotation = now.getTime() - Date.parse(family.rotatedAt);
  const current = tokenOf(family.familyId, family.generation);
  if (
    generation === family.generation - 1 &&
    sinceRotation <= REFRESH_GRACE_SECONDS * 1000 &&
    hashRefreshToken(current) === family.tokenHash
  ) {
    return { ...(await accessFor(user, family.mfa, now)), user: toUser(user), refreshToken: current };
  }
  return revokeForReuse(family);
}

/** POST /api/auth/logout: ends the family of this cookie (nothing when the cookie is not a genuine one). */
export async function logoutSession(token: string | undefined): Promise<void> {
  const parsed = parseRefreshToken(token);
  if (parsed) await deleteRefreshFamily(parsed.familyId);
}

/** POST /api/auth/logoutEverywhere: every access token and refresh family of the user stops working. */
export async function logoutEverywhere(userId: string): Promise<void> {
  if (!(await bumpTokenVersion(userId))) throw new RefreshRefused();
}
