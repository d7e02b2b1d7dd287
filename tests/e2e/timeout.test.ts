/**
 * A request that runs out of time answers locally as it does deployed: 503 with Retry-After in the
 * error envelope, never serverless-offline's own 200 carrying a stack trace (issue 35, item 4;
 * docs/concurrency.md "A timeout is a 503 locally too").
 */
import { describe, expect, it } from 'vitest';
import { apiUrl } from '#tests/helpers/e2e.ts';
import { expectError } from '#tests/helpers/schema.ts';

const outOfTime = async () => {
  const res = await fetch(`${apiUrl()}/api/test-only/outOfTime`);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
};

describe('a handler that runs out of time', () => {
  it('answers 503 with Retry-After and the service envelope, cold and warm, also several at once', async () => {
    // the first call includes loading the bundle: where offline's own timer used to win
    const answers = [await outOfTime(), ...(await Promise.all([outOfTime(), outOfTime(), outOfTime()]))];
    for (const a of answers) {
      expect(a.status, a.text).toBe(503);
      expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(a.text).not.toMatch(/stackTrace|errorType|node_modules|\.js:\d+/);
      expectError(JSON.parse(a.text), 'SERVICE_UNAVAILABLE');
    }
  });
});
