/**
 * JSON Web Tokens (RFC 8725): HS256 pinned, `exp` and `iat` required, issuer and audience
 * checked. The secret's length is checked at start-up by lib/config.ts.
 */
import { errors, jwtVerify, SignJWT } from 'jose';
import { config, secret } from '#lib/config.ts';

/** Read on first use: only the functions that sign or verify tokens are given JWT_SECRET. */
let cachedKey: Uint8Array | undefined;
const key = (): Uint8Array => {
  cachedKey ??= new TextEncoder().encode(secret('JWT_SECRET'));
  return cachedKey;
};
const ALG = 'HS256';

export interface TokenClaims {
  /** user id */
  sub: string;
  /** permissionType when the token was issued (informational: routes read the user record) */
  role: number;
  /** token version: bumped on password change/reset so older tokens stop working */
  tv: number;
  /**
   * Whether the session passed a second factor at login; carried unchanged through every refresh
   * of the login's family (lib/accounts/sessions.ts). False for everyone until two-factor sign-in.
   */
  mfa: boolean;
}

export interface IssuedToken {
  token: string;
  expiresAt: string;
}

/** What a token is signed from: `mfa` is false unless said otherwise. */
export type TokenInput = Omit<TokenClaims, 'mfa'> & { mfa?: boolean };

export async function signToken(claims: TokenInput, now: Date = new Date()): Promise<IssuedToken> {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + config.JWT_TTL_SECONDS;
  const token = await new SignJWT({ role: claims.role, tv: claims.tv, mfa: claims.mfa === true })
    .setProtectedHeader({ alg: ALG, typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(config.JWT_ISSUER)
    .setAudience(config.JWT_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(key());
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}

export class InvalidToken extends Error {
  override name = 'InvalidToken';
}

const CLOCK_TOLERANCE_SECONDS = 5;

/**
 * The lifetime claims must be ones this service issues: `iat` not in the future, the token no
 * older than JWT_TTL_SECONDS, and `exp - iat` no longer than that either (a correctly signed token
 * with a far `exp` or a future `iat` is refused, whatever signed it).
 */
function lifetimeProblem(iat: unknown, exp: unknown, now: Date): string | null {
  if (typeof iat !== 'number' || typeof exp !== 'number') return 'iat and exp must be numbers';
  const nowSeconds = now.getTime() / 1000;
  if (iat > nowSeconds + CLOCK_TOLERANCE_SECONDS) return 'iat is in the future';
  if (exp - iat > config.JWT_TTL_SECONDS) return 'the token lives longer than tokens are issued for';
  if (nowSeconds - iat > config.JWT_TTL_SECONDS + CLOCK_TOLERANCE_SECONDS) return 'the token is too old';
  return null;
}

/** Verifies a compact JWS; throws InvalidToken for anything not exactly right. */
export async function verifyToken(token: string, now: Date = new Date()): Promise<TokenClaims> {
  try {
    const { payload } = await jwtVerify(token, key(), {
      algorithms: [ALG],
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      requiredClaims: ['exp', 'iat', 'sub'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: now,
    });
    const lifetime = lifetimeProblem(payload.iat, payload.exp, now);
    if (lifetime) throw new InvalidToken(lifetime);
    const { sub, role, tv, mfa } = payload as { sub?: unknown; role?: unknown; tv?: unknown; mfa?: unknown };
    if (typeof sub !== 'string' || typeof role !== 'number' || typeof tv !== 'number') {
      throw new InvalidToken('token claims are malformed');
    }
    if (mfa !== undefined && typeof mfa !== 'boolean') throw new InvalidToken('token claims are malformed');
    return { sub, role, tv, mfa: mfa === true };
  } catch (err) {
    if (err instanceof InvalidToken) throw err;
    if (err instanceof errors.JOSEError || err instanceof TypeError) throw new InvalidToken(err.message);
    throw err;
  }
}
