import { describe, expect, it } from 'vitest';
import { clearedRefreshCookies, refreshCookies } from '#lib/http/cookies.ts';

describe('the refresh cookie lines', () => {
  it('are Secure on a deployed stage, not on the emulated ones (plain http://localhost)', () => {
    for (const line of refreshCookies('t', 60, 'prod')) expect(line).toMatch(/; Secure$/);
    for (const line of clearedRefreshCookies('dev')) expect(line).toMatch(/; Secure$/);
    for (const line of refreshCookies('t', 60, 'test')) expect(line).not.toMatch(/Secure/);
    for (const line of refreshCookies('t', 60, 'local')) expect(line).not.toMatch(/Secure/);
  });

  it('are limited to the one path that reads each', () => {
    expect(refreshCookies('tok', 60, 'prod')).toEqual([
      'cb_refresh=tok; Path=/api/auth/refresh; Max-Age=60; HttpOnly; SameSite=Strict; Secure',
      'cb_logout=tok; Path=/api/auth/logout; Max-Age=60; HttpOnly; SameSite=Strict; Secure',
    ]);
  });
});
