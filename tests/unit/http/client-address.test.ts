import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { clientAddress, originVerified } from '#lib/http/client-address.ts';
import { errorMapper } from '#lib/http/error-mapper.ts';
import { baseStack, originCheck } from '#lib/http/stack.ts';
import { makeEvent } from '#tests/helpers/lambda.ts';

const SECRET = 'origin-verify-secret-0123456789abcdefghijklmnopqrstuv';
const event = (headers: Record<string, string>, sourceIp = '130.176.1.20'): APIGatewayProxyEventV2 => {
  const e = makeEvent({ method: 'POST', route: '/api/auth/signup', headers });
  e.requestContext.http.sourceIp = sourceIp;
  return e;
};

describe('clientAddress (lib/http/client-address.ts)', () => {
  it("takes CloudFront's viewer address only when the origin-verify header carries the secret", () => {
    const viewer = { 'cloudfront-viewer-address': '203.0.113.7:46532' };
    expect(clientAddress(event({ ...viewer, 'x-origin-verify': SECRET }), SECRET)).toBe('203.0.113.7');
    // IPv6: the port is after the last colon
    expect(
      clientAddress(
        event({ 'cloudfront-viewer-address': '2001:db8::1:443', 'x-origin-verify': SECRET }),
        SECRET,
      ),
    ).toBe('2001:db8::1');
    // A client setting the header itself without the secret gets its source IP, never its claim.
    expect(clientAddress(event({ ...viewer, 'x-origin-verify': 'guess' }), SECRET)).toBe('130.176.1.20');
    expect(clientAddress(event(viewer), SECRET)).toBe('130.176.1.20');
    // No secret (local, test): the source IP, whatever the headers say.
    expect(clientAddress(event({ ...viewer, 'x-origin-verify': '' }), undefined)).toBe('130.176.1.20');
    // A malformed viewer address falls back to the source IP.
    expect(
      clientAddress(event({ 'cloudfront-viewer-address': 'nonsense', 'x-origin-verify': SECRET }), SECRET),
    ).toBe('130.176.1.20');
  });

  it('compares the whole secret', () => {
    expect(originVerified(event({ 'x-origin-verify': SECRET }), SECRET)).toBe(true);
    expect(originVerified(event({ 'x-origin-verify': SECRET.slice(0, -1) }), SECRET)).toBe(false);
    expect(originVerified(event({ 'x-origin-verify': `${SECRET}x` }), SECRET)).toBe(false);
    expect(originVerified(event({}), SECRET)).toBe(false);
    expect(originVerified(event({ 'x-origin-verify': SECRET }), undefined)).toBe(false);
  });
});

describe('originCheck (lib/http/stack.ts)', () => {
  const handler = (secret: string | undefined) =>
    middy<APIGatewayProxyEventV2, APIGatewayProxyResultV2>(async () => ({ statusCode: 200, body: 'ok' }))
      .use(httpHeaderNormalizer())
      .use(originCheck(secret))
      .use(errorMapper);
  const context = {} as Context;

  it('answers 403 to a request that did not come through CloudFront, and lets the verified one in', async () => {
    const direct = (await handler(SECRET)(event({}), context)) as { statusCode: number; body: string };
    expect(direct.statusCode).toBe(403);
    expect(direct.body).toContain('"code":"ORIGIN_NOT_VERIFIED"');
    const wrong = (await handler(SECRET)(event({ 'X-Origin-Verify': 'nope' }), context)) as {
      statusCode: number;
    };
    expect(wrong.statusCode).toBe(403);
    const through = (await handler(SECRET)(event({ 'X-Origin-Verify': SECRET }), context)) as {
      statusCode: number;
      body: string;
    };
    expect(through).toMatchObject({ statusCode: 200, body: 'ok' });
  });

  it('checks nothing without a secret (local and test stages), as the shared stack does here', async () => {
    expect(((await handler(undefined)(event({}), context)) as { statusCode: number }).statusCode).toBe(200);
    const base = baseStack(async () => ({ statusCode: 200, body: 'ok' }));
    expect(
      ((await base(event({}), { ...context, awsRequestId: 'r1' } as Context)) as { statusCode: number })
        .statusCode,
    ).toBe(200);
  });
});
