import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { handler as login } from '#functions/auth/login.ts';
import { handler as logout } from '#functions/auth/logout.ts';
import { handler as logoutEverywhere } from '#functions/auth/logout-everywhere.ts';
import { handler as passwordReset } from '#functions/auth/password-reset.ts';
import { handler as refresh } from '#functions/auth/refresh.ts';
import { handler as updatePassword } from '#functions/auth/update-password.ts';
import { createResetToken } from '#lib/accounts/password.ts';
import { LoggedOut, LoginResult, NewToken } from '#lib/accounts/schemas.ts';
import { hashRefreshToken, REFRESH_GRACE_SECONDS, refreshSession } from '#lib/accounts/sessions.ts';
import { config } from '#lib/config.ts';
import { makeAdmin, revokeAdmin } from '#lib/dashboard/users.ts';
import { refreshFamilyKey } from '#lib/db/keys.ts';
import { setPermissionType } from '#lib/db/users.ts';
import { suspendUser } from '#lib/moderation/suspension.ts';
import { deleteAccount } from '#lib/privacy/deletion.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { measured, startMeasuring } from '#lib/table/metrics.ts';
import { me } from '#tests/helpers/account-calls.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { type InvokeResult, invoke } from '#tests/helpers/lambda.ts';
import { expectOk, expectRefusal } from '#tests/helpers/schema.ts';
import { sortedCommands } from '#tests/helpers/stream.ts';

const SAME_SITE = { 'x-csrf': '1', origin: 'http://localhost:3000' };
const DAY = 24 * 3600 * 1000;

/** The refresh token a response hands out (one Set-Cookie line per cookie path, the same value). */
function refreshTokenOf(res: InvokeResult): string {
  const refreshCookies = res.cookies.filter((c) => !c.startsWith('cb_device_')); // login's device cookie: devices.test.ts
  expect(refreshCookies).toHaveLength(2);
  const values = refreshCookies.map((c) => /^cb_(?:refresh|logout)=([^;]*);/.exec(c)?.[1]);
  expect(values[0]).toBeTruthy();
  expect(values[1]).toBe(values[0]);
  return values[0] as string;
}

const familyIdOf = (token: string) => token.split('.')[0] as string;
const storedFamily = async (token: string) =>
  (
    await db.send(
      new GetCommand({ TableName: TABLE, Key: refreshFamilyKey(familyIdOf(token)), ConsistentRead: true }),
    )
  ).Item;

async function signIn(options: Parameters<typeof createConfirmedUser>[0] = {}) {
  const account = await createConfirmedUser(options);
  const res = await invoke(login, {
    method: 'POST',
    route: '/api/auth/login',
    body: { emailAddress: account.user.emailAddress, password: account.password },
  });
  const session = expectOk(res, LoginResult);
  return {
    ...account,
    token: session.token,
    refreshToken: refreshTokenOf(res),
    loginCookies: res.cookies.filter((c) => !c.startsWith('cb_device_')),
  };
}

const callRefresh = (refreshToken: string | null, headers: Record<string, string> = SAME_SITE) =>
  invoke(refresh, {
    method: 'POST',
    route: '/api/auth/refresh',
    headers,
    ...(refreshToken === null ? {} : { cookies: [`cb_refresh=${refreshToken}`] }),
  });

describe('login sets the refresh cookie', () => {
  it('HttpOnly, SameSite=Strict, one per auth path that reads it, for the sliding lifetime; only the hash is stored', async () => {
    const { loginCookies, refreshToken, user } = await signIn();
    const maxAge = config.REFRESH_TTL_DAYS * 24 * 3600;
    expect(loginCookies).toEqual([
      `cb_refresh=${refreshToken}; Path=/api/auth/refresh; Max-Age=${maxAge}; HttpOnly; SameSite=Strict`,
      `cb_logout=${refreshToken}; Path=/api/auth/logout; Max-Age=${maxAge}; HttpOnly; SameSite=Strict`,
    ]);
    const family = await storedFamily(refreshToken);
    expect(family).toMatchObject({
      userId: user.id,
      generation: 0,
      tokenHash: hashRefreshToken(refreshToken),
      mfa: false,
    });
    expect(JSON.stringify(family)).not.toContain(refreshToken);
    expect(family?.ttl).toBe(Math.ceil(Date.parse(family?.expiresAt as string) / 1000));
  });
});

describe('POST /api/auth/refresh', () => {
  it('answers a new access token and rotates the cookie; the new token works, the mfa claim is carried', async () => {
    const { refreshToken, user } = await signIn();
    const res = await callRefresh(refreshToken);
    const session = expectOk(res, LoginResult);
    expect(session.user).toEqual(user);
    expect(decodeJwt(session.token)).toMatchObject({ sub: user.id, tv: 0, mfa: false });
    const next = refreshTokenOf(res);
    expect(next).not.toBe(refreshToken);
    expect(familyIdOf(next)).toBe(familyIdOf(refreshToken));
    expect(await storedFamily(next)).toMatchObject({ generation: 1, tokenHash: hashRefreshToken(next) });
    expect((await me(session.token)).status).toBe(200);
    // the rotated token refreshes again
    expectOk(await callRefresh(next), LoginResult);
  });

  it('costs a fixed, small number of DynamoDB calls', async () => {
    const { refreshToken } = await signIn();
    startMeasuring();
    expect((await callRefresh(refreshToken)).status).toBe(200);
    expect(sortedCommands()).toEqual(['GetItem', 'GetItem', 'UpdateItem']);
  });

  it('a reused token revokes the family and every session of the user (401 REFRESH_REUSED)', async () => {
    const { refreshToken, token } = await signIn();
    const second = await signIn(); // another user: untouched
    const now = new Date();
    const next = (await refreshSession(refreshToken, now)).refreshToken;
    const later = new Date(now.getTime() + (REFRESH_GRACE_SECONDS + 1) * 1000);
    // the thief (or the victim) replays the old token after the grace
    await expect(refreshSession(refreshToken, later)).rejects.toMatchObject({ code: 'REFRESH_REUSED' });
    expect(await storedFamily(refreshToken)).toBeUndefined();
    // the token that was current is dead too, and so is every access token of the user
    expectRefusal(await callRefresh(next), 401, 'REFRESH_INVALID');
    expect((await me(token)).status).toBe(401);
    expect((await me(second.token)).status).toBe(200);
    expectOk(await callRefresh(second.refreshToken), LoginResult);
  });

  it('two tabs refreshing with the same token at once: both signed in, with the same new token', async () => {
    const { refreshToken } = await signIn();
    const [a, b] = await Promise.all([callRefresh(refreshToken), callRefresh(refreshToken)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(refreshTokenOf(a)).toBe(refreshTokenOf(b));
    expect(await storedFamily(refreshToken)).toMatchObject({ generation: 1 });
    // the loser arriving a little later (within the grace) gets the same answer and writes nothing
    startMeasuring();
    expect(refreshTokenOf(await callRefresh(refreshToken))).toBe(refreshTokenOf(a));
    expect(measured().operations.map((o) => o.command)).toEqual(['GetItem', 'GetItem']);
  });

  it('a burst of page loads rotates once: an answer lost on the way leaves a cookie the next load still signs in with', async () => {
    const { refreshToken } = await signIn();
    const now = Date.now();
    const at = (s: number) => new Date(now + s * 1000);
    // load 1 rotates 0 -> 1, but the student taps on and its answer (the new cookie) is lost
    const first = await refreshSession(refreshToken, at(0));
    // load 2 sends the old cookie: the grace answers generation 1
    expect((await refreshSession(refreshToken, at(1))).refreshToken).toBe(first.refreshToken);
    // load 3 sends generation 1 moments after its rotation: the same token, nothing written
    startMeasuring();
    expect((await refreshSession(first.refreshToken, at(2))).refreshToken).toBe(first.refreshToken);
    expect(sortedCommands()).toEqual(['GetItem', 'GetItem']);
    // a late answer of load 2 puts generation 0 back: still signed in, nobody logged out
    expect((await refreshSession(refreshToken, at(3))).refreshToken).toBe(first.refreshToken);
    expect(await storedFamily(refreshToken)).toMatchObject({ generation: 1 });
    // after the grace the current token rotates again
    const later = await refreshSession(first.refreshToken, at(REFRESH_GRACE_SECONDS + 2));
    expect(later.refreshToken).not.toBe(first.refreshToken);
    expect(await storedFamily(refreshToken)).toMatchObject({ generation: 2 });
  });

  it('expires after the sliding lifetime without use, and every use moves the expiry on', async () => {
    const { refreshToken } = await signIn();
    const start = Date.now();
    const lifetime = config.REFRESH_TTL_DAYS * DAY;
    // used just before it expires: good for another full lifetime from then
    const used = await refreshSession(refreshToken, new Date(start + lifetime - DAY));
    await expect(refreshSession(used.refreshToken, new Date(start + lifetime + DAY))).resolves.toMatchObject({
      user: expect.anything(),
    });
    const other = await signIn();
    await expect(
      refreshSession(other.refreshToken, new Date(Date.now() + lifetime + 1000)),
    ).rejects.toMatchObject({
      code: 'REFRESH_INVALID',
    });
  });

  it('refuses no cookie, a forged token and a token of another family (401, nothing revoked)', async () => {
    const { refreshToken, token } = await signIn();
    expectRefusal(await callRefresh(null), 401, 'REFRESH_INVALID');
    expectRefusal(await callRefresh('garbage'), 401, 'REFRESH_INVALID');
    const [family, generation] = refreshToken.split('.');
    expectRefusal(
      await callRefresh(`${family}.${Number(generation) + 5}.${'A'.repeat(43)}`),
      401,
      'REFRESH_INVALID',
    );
    expect((await me(token)).status).toBe(200);
    expectOk(await callRefresh(refreshToken), LoginResult);
  });

  it('refuses a request a foreign page could make: no X-CSRF header, or a foreign Origin (403)', async () => {
    const { refreshToken } = await signIn();
    expectRefusal(await callRefresh(refreshToken, { origin: 'http://localhost:3000' }), 403, 'CSRF_REFUSED');
    expectRefusal(
      await callRefresh(refreshToken, { 'x-csrf': '1', origin: 'https://evil.example' }),
      403,
      'CSRF_REFUSED',
    );
    // nothing moved: the token is still the current one
    expect(await storedFamily(refreshToken)).toMatchObject({ generation: 0 });
    expectOk(await callRefresh(refreshToken, { 'x-csrf': '1' }), LoginResult);
  });
});

describe('what ends a refresh family', () => {
  it('logout: this family only, the cookie cleared', async () => {
    const { refreshToken, user, password } = await signIn();
    const other = await invoke(login, {
      method: 'POST',
      route: '/api/auth/login',
      body: { emailAddress: user.emailAddress, password },
    });
    const res = await invoke(logout, {
      method: 'POST',
      route: '/api/auth/logout',
      headers: SAME_SITE,
      cookies: [`cb_logout=${refreshToken}`],
    });
    expect(expectOk(res, LoggedOut)).toEqual({ loggedOut: true });
    expect(res.cookies).toEqual([
      'cb_refresh=; Path=/api/auth/refresh; Max-Age=0; HttpOnly; SameSite=Strict',
      'cb_logout=; Path=/api/auth/logout; Max-Age=0; HttpOnly; SameSite=Strict',
    ]);
    expect(await storedFamily(refreshToken)).toBeUndefined();
    expectRefusal(await callRefresh(refreshToken), 401, 'REFRESH_INVALID');
    expectOk(await callRefresh(refreshTokenOf(other)), LoginResult);
  });

  it('logout without X-CSRF is refused and ends nothing', async () => {
    const { refreshToken } = await signIn();
    const res = await invoke(logout, {
      method: 'POST',
      route: '/api/auth/logout',
      cookies: [`cb_refresh=${refreshToken}`],
    });
    expectRefusal(res, 403, 'CSRF_REFUSED');
    expect(await storedFamily(refreshToken)).toMatchObject({ generation: 0 });
  });

  it('logoutEverywhere: every family and access token of the user', async () => {
    const first = await signIn();
    const second = await invoke(login, {
      method: 'POST',
      route: '/api/auth/login',
      body: { emailAddress: first.user.emailAddress, password: first.password },
    });
    const res = await invoke(logoutEverywhere, {
      method: 'POST',
      route: '/api/auth/logoutEverywhere',
      token: first.token,
    });
    expect(expectOk(res, LoggedOut)).toEqual({ loggedOut: true });
    expect((await me(first.token)).status).toBe(401);
    expect((await me(expectOk(second, LoginResult).token)).status).toBe(401);
    expectRefusal(await callRefresh(first.refreshToken), 401, 'REFRESH_INVALID');
    expectRefusal(await callRefresh(refreshTokenOf(second)), 401, 'REFRESH_INVALID');
  });

  it('password change: other sessions end, this one gets a new family', async () => {
    const { refreshToken, token, password } = await signIn();
    const res = await invoke(updatePassword, {
      method: 'POST',
      route: '/api/auth/updatePassword',
      token,
      body: { password, newPassword: 'another long passphrase' },
    });
    expectOk(res, NewToken);
    const fresh = refreshTokenOf(res);
    expect(familyIdOf(fresh)).not.toBe(familyIdOf(refreshToken));
    expectRefusal(await callRefresh(refreshToken), 401, 'REFRESH_INVALID');
    expectOk(await callRefresh(fresh), LoginResult);
  });

  it('password reset', async () => {
    const { refreshToken, user } = await signIn();
    const resetToken = await createResetToken(user.id);
    const res = await invoke(passwordReset, {
      method: 'POST',
      route: '/api/auth/passwordReset',
      body: { token: resetToken, password: 'a reset passphrase' },
    });
    expect(res.status).toBe(200);
    expectRefusal(await callRefresh(refreshToken), 401, 'REFRESH_INVALID');
  });

  it('suspension', async () => {
    const { refreshToken, user } = await signIn();
    const owner = await createConfirmedUser({ permissionType: 2 });
    await suspendUser({ userId: owner.user.id, permissionType: 2 }, { userId: user.id, reason: 'spam' });
    expectRefusal(await callRefresh(refreshToken), 401, 'REFRESH_INVALID');
  });

  it('role change: makeAdmin and revokeAdmin', async () => {
    const owner = await createConfirmedUser({ permissionType: 2 });
    const student = await signIn();
    await makeAdmin(owner.user.id, student.user.id);
    expectRefusal(await callRefresh(student.refreshToken), 401, 'REFRESH_INVALID');
    const admin = await signIn({ permissionType: 1 });
    await revokeAdmin(owner.user.id, admin.user.id);
    expectRefusal(await callRefresh(admin.refreshToken), 401, 'REFRESH_INVALID');
  });

  it('a role set behind the service’s back (promote-owner) ends it too', async () => {
    const { refreshToken, user } = await signIn();
    await setPermissionType(user.id, 2);
    expectRefusal(await callRefresh(refreshToken), 401, 'REFRESH_INVALID');
  });

  it('account deletion', async () => {
    const { refreshToken, user, password, record } = await signIn();
    await deleteAccount({ userId: user.id, tokenVersion: record.tokenVersion }, password);
    expectRefusal(await callRefresh(refreshToken), 401, 'REFRESH_INVALID');
  });
});
