/**
 * The refresh cookie over HTTP, through serverless-offline: Set-Cookie lines as a browser gets
 * them, rotation, reuse, CSRF refusals, CORS with credentials for a configured origin only, logout.
 */
import { describe, expect, it } from 'vitest';
import { LoggedOut, LoginResult } from '#lib/accounts/schemas.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { type ApiResponse, api, apiUrl } from '#tests/helpers/e2e.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { ageRefreshFamily } from '#tests/helpers/stored.ts';

const setCookies = (res: ApiResponse) => res.headers.getSetCookie();
const refreshTokenIn = (res: ApiResponse) => {
  // the refresh and logout cookies (a login also sets the account's device cookie)
  const lines = setCookies(res).filter((l) => !l.startsWith('cb_device_'));
  expect(lines).toHaveLength(2);
  const value = /^cb_refresh=([^;]*);/.exec(lines.find((l) => l.startsWith('cb_refresh=')) ?? '')?.[1];
  expect(value).toBeTruthy();
  return value as string;
};
const refresh = (token: string, headers: Record<string, string> = { 'x-csrf': '1' }) =>
  api('POST', '/api/auth/refresh', { headers: { ...headers, cookie: `cb_refresh=${token}` } });

async function loggedIn() {
  const account = await createConfirmedUser();
  const res = await api('POST', '/api/auth/login', {
    body: { emailAddress: account.user.emailAddress, password: account.password },
  });
  expect(res.status).toBe(200);
  return { ...account, session: expectEnvelope(res.body, LoginResult), cookies: setCookies(res), res };
}

describe('the refresh cookie over HTTP', () => {
  it('login sets it for the two auth paths, HttpOnly and SameSite=Strict (no Secure on the test stage)', async () => {
    const { cookies } = await loggedIn();
    // the two refresh cookies and the account's device cookie (tests/integration/accounts/devices.test.ts)
    expect(cookies).toHaveLength(3);
    // the HTTP server may order the attributes its own way: each is checked apart
    const device = cookies.find((c) => c.startsWith('cb_device_')) ?? '';
    for (const attribute of [/; Path=\/api\/auth\/login(;|$)/, /; HttpOnly(;|$)/, /; SameSite=Strict(;|$)/])
      expect(device).toMatch(attribute);
    expect(device).not.toMatch(/Secure/);
    const refreshLine = cookies.find((c) => c.startsWith('cb_refresh='));
    const logoutLine = cookies.find((c) => c.startsWith('cb_logout='));
    for (const [line, path] of [
      [refreshLine, '/api/auth/refresh'],
      [logoutLine, '/api/auth/logout'],
    ] as const) {
      expect(line).toContain(`Path=${path}`);
      expect(line).toMatch(/HttpOnly/);
      expect(line).toMatch(/SameSite=Strict/);
      expect(line).toMatch(/Max-Age=\d+/);
      expect(line).not.toMatch(/Secure/);
    }
    expect(/^cb_logout=([^;]+)/.exec(logoutLine ?? '')?.[1]).toBe(
      /^cb_refresh=([^;]+)/.exec(refreshLine ?? '')?.[1],
    );
  });

  it('rotates at each refresh; the new access token works; an old token after the grace signs everyone out', async () => {
    const { res, session } = await loggedIn();
    const first = refreshTokenIn(res);
    const one = await refresh(first);
    expect(one.status).toBe(200);
    const fresh = expectEnvelope(one.body, LoginResult);
    const second = refreshTokenIn(one);
    expect(second).not.toBe(first);
    expect((await api('GET', '/api/user/getUserData', { token: fresh.token })).status).toBe(200);
    // moments after a rotation the current token is answered as it is (a burst of page loads)
    const again = await refresh(second);
    expect(again.status).toBe(200);
    expect(refreshTokenIn(again)).toBe(second);
    // once the grace has passed (the rotation dated back, as time would), it rotates again
    await ageRefreshFamily(second);
    const two = await refresh(second);
    expect(two.status).toBe(200);
    expect(refreshTokenIn(two)).not.toBe(second);
    // `first` is two generations old now: a reuse, whatever the grace
    const reused = await refresh(first);
    expect(reused.status).toBe(401);
    expectError(reused.body, 'REFRESH_REUSED');
    expect((await refresh(refreshTokenIn(two))).status).toBe(401);
    expect((await api('GET', '/api/user/getUserData', { token: session.token })).status).toBe(401);
    expect((await api('GET', '/api/user/getUserData', { token: fresh.token })).status).toBe(401);
  });

  it('refuses a refresh without X-CSRF or from a foreign Origin (403), and without a cookie (401)', async () => {
    const { res } = await loggedIn();
    const token = refreshTokenIn(res);
    const bare = await refresh(token, {});
    expect(bare.status).toBe(403);
    expectError(bare.body, 'CSRF_REFUSED');
    const foreign = await refresh(token, { 'x-csrf': '1', origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expectError(foreign.body, 'CSRF_REFUSED');
    const none = await api('POST', '/api/auth/refresh', { headers: { 'x-csrf': '1' } });
    expect(none.status).toBe(401);
    expectError(none.body, 'REFRESH_INVALID');
    expect((await refresh(token, { 'x-csrf': '1', origin: 'http://localhost:3000' })).status).toBe(200);
  });

  it('CORS: a configured origin may send credentials and X-CSRF; a foreign one gets no CORS headers', async () => {
    const preflight = (origin: string) =>
      fetch(`${apiUrl()}/api/auth/refresh`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-csrf',
        },
      });
    const ok = await preflight('http://localhost:3000');
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    expect(ok.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-csrf');
    const evil = await preflight('https://evil.example');
    expect(evil.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
  });

  it('logout ends this family and clears the cookie', async () => {
    const { res } = await loggedIn();
    const token = refreshTokenIn(res);
    const out = await api('POST', '/api/auth/logout', {
      headers: { 'x-csrf': '1', cookie: `cb_logout=${token}` },
    });
    expect(out.status).toBe(200);
    expect(expectEnvelope(out.body, LoggedOut)).toEqual({ loggedOut: true });
    const cleared = setCookies(out);
    expect(cleared).toHaveLength(2);
    for (const name of ['cb_refresh', 'cb_logout']) {
      expect(cleared.find((c) => c.startsWith(`${name}=;`))).toMatch(/Max-Age=0/);
    }
    expect((await refresh(token)).status).toBe(401);
  });
});
