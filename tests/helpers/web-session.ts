/**
 * The session a browser holds, as the tests read it: what its refresh cookie answers, a bearer token
 * of it, and the cookie itself (the app keeps its access token in memory only, out of the tests'
 * reach; docs/web.md).
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * What the page's refresh cookie answers now, as a new tab of the same browser would ask it: the
 * status and a fresh access token (the app keeps its own in memory only, out of the tests' reach).
 */
export async function refreshFrom(page: Page): Promise<{ status: number; token: string }> {
  return page.evaluate(async () => {
    const res = await fetch('/api/auth/refresh', { method: 'POST', headers: { 'X-CSRF': '1' } });
    const body = (await res.json()) as { data: { token?: string } };
    return { status: res.status, token: body.data.token ?? '' };
  });
}

/** A valid bearer token of the page's session (from its refresh cookie). */
export async function tokenOf(page: Page): Promise<string> {
  const { status, token } = await refreshFrom(page);
  expect(status).toBe(200);
  return token;
}

/** The page's refresh cookie (one per cookie path; the first), or undefined. */
export async function refreshCookieOf(page: Page) {
  return (await page.context().cookies()).find((c) => c.name === 'cb_refresh' && c.value !== '');
}
