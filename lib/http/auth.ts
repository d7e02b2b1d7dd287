/**
 * Bearer authentication for the marketplace. `required`: no token -> 401. `optional`: no token ->
 * anonymous, but a present and bad token is still 401. A good token is checked against the
 * user record (one projected GetItem): a bumped token version (password changed or reset) or a
 * deleted user -> 401, and the principal's role is the record's, not the token's.
 */
import { InvalidToken, verifyToken } from '#lib/accounts/jwt.ts';
import type { Principal } from '#lib/accounts/principal.ts';
import { getUserAuthState } from '#lib/db/users.ts';
import { Unauthorized } from '#lib/errors.ts';

const BEARER = /^Bearer ([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]*)$/;

export async function authenticate(
  header: string | undefined,
  mode: 'none' | 'optional' | 'required',
): Promise<Principal | null> {
  if (mode === 'none') return null;
  if (header === undefined || header.trim() === '') {
    if (mode === 'optional') return null;
    throw new Unauthorized('A bearer token is required.', 'TOKEN_MISSING', 'Bearer');
  }
  const match = BEARER.exec(header.trim());
  if (!match?.[1]) throw invalid();
  let claims: Awaited<ReturnType<typeof verifyToken>>;
  try {
    claims = await verifyToken(match[1]);
  } catch (err) {
    if (err instanceof InvalidToken) throw invalid();
    throw err;
  }
  const user = await getUserAuthState(claims.sub);
  if (!user || user.tokenVersion !== claims.tv) throw invalid();
  return {
    userId: user.id,
    permissionType: user.permissionType,
    tokenVersion: user.tokenVersion,
    campus: user.campus,
    blockedIds: user.blockedIds,
    mfa: claims.mfa,
  };
}

function invalid(): Unauthorized {
  return new Unauthorized(
    'The token is missing, invalid or expired.',
    'TOKEN_INVALID',
    'Bearer error="invalid_token"',
  );
}
