/**
 * The refresh cookie and the checks of the routes that read it (refresh, logout).
 *
 * `cb_refresh` (Path `/api/auth/refresh`) and `cb_logout` (Path `/api/auth/logout`), the same token:
 * HttpOnly (no script reads it), SameSite=Strict (no cross-site request carries it), Secure outside
 * the emulated stages, each limited to the one route that reads it (no other route receives it), for
 * the family's sliding lifetime (Max-Age).
 *
 * CSRF: besides SameSite, a cookie route needs the `X-CSRF: 1` header (a cross-site page cannot send
 * a custom header without a CORS preflight, which only the configured origins pass) and, when the
 * browser sends an Origin, one of CORS_ORIGINS or the service's own (403 otherwise; on the emulated
 * stages also any loopback origin, where the browser tests serve the app on a free port).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { DEVICE_COOKIE_MAX_AGE_SECONDS } from '#lib/accounts/devices.ts';
import { refreshLifetimeSeconds, type SignedIn } from '#lib/accounts/sessions.ts';
import { config, isEmulatedStage } from '#lib/config.ts';
import { Forbidden } from '#lib/errors.ts';
import { Reply } from './index.ts';

/** The refresh cookie, as the refresh route reads it. */
export const REFRESH_COOKIE = 'cb_refresh';
/** The same token under its own name for the logout route (one name per path: see below). */
export const LOGOUT_COOKIE = 'cb_logout';
/**
 * One cookie per route that reads the token, each limited to that route's path. Two names rather
 * than one name on two paths: serverless-offline keeps one cookie per name in an answer.
 */
export const REFRESH_COOKIE_PATHS = [
  [REFRESH_COOKIE, '/api/auth/refresh'],
  [LOGOUT_COOKIE, '/api/auth/logout'],
] as const;
export const CSRF_HEADER = 'x-csrf';

/** The value of cookie `name` in a request (payload 2.0 puts cookies in `event.cookies`). */
export function readCookie(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const pairs = event.cookies ?? (event.headers?.cookie ?? '').split(';');
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

function cookieLines(value: string, maxAgeSeconds: number, stage: string): string[] {
  const secure = isEmulatedStage(stage) ? '' : '; Secure';
  return REFRESH_COOKIE_PATHS.map(
    ([name, path]) =>
      `${name}=${value}; Path=${path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`,
  );
}

/** The Set-Cookie lines that hand a browser its refresh token. */
export const refreshCookies = (token: string, maxAgeSeconds: number, stage = config.STAGE): string[] =>
  cookieLines(token, maxAgeSeconds, stage);

/** The Set-Cookie lines that remove it. */
export const clearedRefreshCookies = (stage = config.STAGE): string[] => cookieLines('', 0, stage);

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * On the emulated stages the web app is served on any free port of this machine (the browser tests):
 * a loopback origin is the app's own there. Never on a deployed stage.
 */
const isLoopback = (origin: string): boolean => /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(origin);

/** Refuses a cookie route's request that a foreign page could have made (403 CSRF_REFUSED). */
export function assertSameSiteRequest(event: APIGatewayProxyEventV2): void {
  const headers = event.headers ?? {};
  if (headers[CSRF_HEADER] !== '1') {
    throw new Forbidden('This request needs the X-CSRF: 1 header.', 'CSRF_REFUSED');
  }
  const origin = headers.origin;
  if (origin === undefined) return;
  const allowed = new Set([...config.CORS_ORIGINS.map(originOf), originOf(config.PUBLIC_URL)]);
  if (!allowed.has(originOf(origin)) && !(isEmulatedStage() && isLoopback(origin))) {
    throw new Forbidden('Requests from this origin are refused.', 'CSRF_REFUSED');
  }
}

/**
 * The device cookie of one account (lib/accounts/devices.ts): HttpOnly, SameSite=Strict, Secure
 * outside the emulated stages, sent only to the login route (the one route that reads it), for a year.
 */
export const deviceCookie = (name: string, value: string, stage = config.STAGE): string =>
  `${name}=${value}; Path=/api/auth/login; Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict${
    isEmulatedStage(stage) ? '' : '; Secure'
  }`;

/**
 * The answer of a route that signs in (login, refresh): the session in the body, its refresh token
 * as the cookie, and on login the browser's device cookie for the account.
 */
export function signedInReply({
  refreshToken,
  ...rest
}: SignedIn & { device?: { name: string; value: string } }): Reply<Omit<SignedIn, 'refreshToken'>> {
  const { device, ...session } = rest;
  const cookies = refreshCookies(refreshToken, refreshLifetimeSeconds());
  return new Reply(session, 200, {
    cookies: device ? [...cookies, deviceCookie(device.name, device.value)] : cookies,
  });
}
