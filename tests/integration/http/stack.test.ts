import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { SignJWT } from 'jose';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { signToken } from '#lib/accounts/jwt.ts';
import { config } from '#lib/config.ts';
import { userKey } from '#lib/db/keys.ts';
import { Conflict } from '#lib/errors.ts';
import { http } from '#lib/http/index.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { PutCommand } from '#lib/table/commands.ts';
import { measured, ScanForbiddenError, startMeasuring, watchCalls } from '#lib/table/metrics.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';

const Echo = z.strictObject({ name: z.string().min(1).max(10), count: z.number().int().optional() });

const echo = http({ body: Echo }, async ({ body, principal }) => ({
  you: principal.userId,
  name: body.name,
}));
const maybe = http({ auth: 'optional' }, async ({ principal }) => ({ who: principal?.userId ?? null }));
const paged = http(
  { auth: 'none', paged: true, query: z.strictObject({ limit: z.coerce.number().int().min(1).max(5) }) },
  async ({ query }) => ({ items: [query.limit], next: 'abc' }),
);
const notAPage = http({ auth: 'none', paged: true }, async () => [1, 2]);
const conflict = http({ auth: 'none' }, async () => {
  throw new Conflict('That book is gone.', [{ bookId: 'b1', message: 'sold' }]);
});
const broken = http({ auth: 'none' }, async () => {
  throw new Error('secret internal detail: connection string xyz');
});

const route = '/api/test/echo';
const key = new TextEncoder().encode(config.JWT_SECRET);
let userId: string;
let goodToken: string;

async function seedUser(tokenVersion = 0): Promise<string> {
  const id = ulid();
  await db.send(
    new PutCommand({ TableName: TABLE, Item: { ...userKey(id), id, permissionType: 0, tokenVersion } }),
  );
  return id;
}

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  userId = await seedUser();
  goodToken = (await signToken({ sub: userId, role: 0, tv: 0 })).token;
});

describe('the shared HTTP stack', () => {
  it('answers with the envelope { data, time, method } naming the route template', async () => {
    const res = await invoke(echo, { method: 'POST', route, token: goodToken, body: { name: 'ok' } });
    expect(res.status).toBe(200);
    const data = expectEnvelope(res.json(), z.strictObject({ you: z.string(), name: z.string() }));
    expect(data).toEqual({ you: userId, name: 'ok' });
    expect(res.json<{ method: string }>().method).toBe(`POST ${route}`);
  });

  it('adds `next` for cursor pages: a paged route returns a Page<T>, its items are the data', async () => {
    const res = await invoke(paged, { route: '/api/p', query: { limit: '3' } });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ data: [3], next: 'abc' });
  });

  it('answers 500 when a paged route returns something other than a Page<T>', async () => {
    const res = await invoke(notAPage, { route: '/api/n' });
    expect(res.status).toBe(500);
  });

  it('is signed-in only by default: a spec that names no auth mode refuses a call without a token', async () => {
    expect(echo.spec.auth).toBe('required');
    const res = await invoke(echo, { method: 'POST', route, body: { name: 'ok' } });
    expect(res.status).toBe(401);
  });

  it('rejects unknown body fields with 400 naming each one, before the handler runs', async () => {
    const res = await invoke(echo, {
      method: 'POST',
      route,
      token: goodToken,
      body: { name: 'x', status: 1, owner: 'me' },
    });
    expect(res.status).toBe(400);
    const err = expectError(res.json(), 'VALIDATION_FAILED');
    expect(err.details?.map((d) => d.field).sort()).toEqual(['owner', 'status']);
  });

  it('rejects out-of-bounds fields and unknown query parameters', async () => {
    const bad = await invoke(echo, {
      method: 'POST',
      route,
      token: goodToken,
      body: { name: 'x'.repeat(11) },
    });
    expect(bad.status).toBe(400);
    expect(expectError(bad.json()).details?.[0]?.field).toBe('name');
    const q = await invoke(paged, { route: '/api/p', query: { limit: '9' } });
    expect(q.status).toBe(400);
    const extra = await invoke(maybe, { route: '/api/m', query: { debug: '1' } });
    expect(extra.status).toBe(400);
  });

  it('answers 400 for malformed JSON and for a non-object body', async () => {
    for (const rawBody of ['{"name":', '[1,2]', '"text"', 'null']) {
      const res = await invoke(echo, { method: 'POST', route, token: goodToken, rawBody });
      expect(res.status, rawBody).toBe(400);
      expectError(res.json(), 'MALFORMED_JSON');
    }
  });

  it('answers 413 for a body over 16 KB before touching the database', async () => {
    startMeasuring();
    const res = await invoke(echo, {
      method: 'POST',
      route,
      token: goodToken,
      rawBody: JSON.stringify({ name: 'a'.repeat(17_000) }),
    });
    expect(res.status).toBe(413);
    expectError(res.json(), 'PAYLOAD_TOO_LARGE');
    expect(measured().calls).toBe(0);
  });

  it('maps domain errors to their status with details', async () => {
    const res = await invoke(conflict, { method: 'POST', route: '/api/c' });
    expect(res.status).toBe(409);
    expect(expectError(res.json(), 'CONFLICT').details).toEqual([{ bookId: 'b1', message: 'sold' }]);
  });

  it('turns an unexpected fault into a 500 with a request id and no internals', async () => {
    const res = await invoke(broken, { route: '/api/b' });
    expect(res.status).toBe(500);
    const err = expectError(res.json(), 'INTERNAL');
    expect(err.requestId).toBeTruthy();
    expect(res.body).not.toContain('secret internal detail');
    expect(res.body).not.toContain('at ');
  });

  it('sends security headers', async () => {
    const res = await invoke(maybe, { route: '/api/m' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeTruthy();
  });

  it('leaves CORS to the HTTP API: a function sets no CORS header, even for a preflight', async () => {
    const origin = 'http://localhost:3000';
    const get = await invoke(maybe, { route: '/api/m', headers: { origin } });
    expect(get.status).toBe(200);
    const preflight = await invoke(maybe, {
      method: 'OPTIONS',
      route: '/api/m',
      headers: { origin, 'access-control-request-method': 'GET' },
    });
    for (const res of [get, preflight]) {
      expect(Object.keys(res.headers).filter((h) => h.toLowerCase().startsWith('access-control-'))).toEqual(
        [],
      );
    }
  });
});

describe('bearer authentication (RFC 8725)', () => {
  const claims = () => ({ role: 0, tv: 0 });
  const sign = (alg: string, secret = key) =>
    new SignJWT(claims())
      .setProtectedHeader({ alg })
      .setSubject(userId)
      .setIssuer(config.JWT_ISSUER)
      .setAudience(config.JWT_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret);
  /** A token signed with the right key and algorithm, its claims as given (null leaves one out). */
  const craft = (o: { iss?: string; aud?: string; iat?: number | null; exp?: number | string | null }) => {
    let jwt = new SignJWT(claims())
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuer(o.iss ?? config.JWT_ISSUER)
      .setAudience(o.aud ?? config.JWT_AUDIENCE);
    if (o.iat !== null) jwt = jwt.setIssuedAt(o.iat);
    if (o.exp !== null) jwt = jwt.setExpirationTime(o.exp ?? '1h');
    return jwt.sign(key);
  };

  const badTokens: Array<[string, () => Promise<string>]> = [
    [
      'alg none',
      async () =>
        `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: userId, ...claims(), iss: config.JWT_ISSUER, aud: config.JWT_AUDIENCE, iat: now(), exp: now() + 600 })}.`,
    ],
    ['another algorithm (HS512)', () => sign('HS512')],
    ['a wrong key', () => sign('HS256', new TextEncoder().encode('x'.repeat(40)))],
    ['no exp', () => craft({ exp: null })],
    ['no iat', () => craft({ iat: null })],
    ['an expired exp', () => craft({ iat: now() - 7200, exp: now() - 3600 })],
    ['a wrong issuer', () => craft({ iss: 'evil' })],
    ['a wrong audience', () => craft({ aud: 'other' })],
    [
      'an iat a year in the future',
      () => craft({ iat: now() + 365 * 24 * 3600, exp: now() + 365 * 24 * 3600 + 600 }),
    ],
    ['a 50-year exp', () => craft({ exp: now() + 50 * 365 * 24 * 3600 })],
    [
      'an iat older than the maximum token age',
      () => craft({ iat: now() - config.JWT_TTL_SECONDS - 60, exp: now() + 600 }),
    ],
    ['garbage', async () => 'not-a-token'],
    [
      'a tampered payload',
      async () => {
        const [h, , s] = goodToken.split('.');
        return `${h}.${b64({ sub: 'someone-else', role: 2, tv: 0, iss: config.JWT_ISSUER, aud: config.JWT_AUDIENCE, iat: now(), exp: now() + 600 })}.${s}`;
      },
    ],
    ['an unknown user', async () => (await signToken({ sub: ulid(), role: 0, tv: 0 })).token],
    ['an outdated token version', async () => (await signToken({ sub: userId, role: 0, tv: 7 })).token],
  ];

  for (const [name, make] of badTokens) {
    it(`refuses a token with ${name} with 401, also where the token is optional`, async () => {
      const token = await make();
      for (const handler of [echo, maybe]) {
        const res = await invoke(handler, {
          method: 'POST',
          route,
          token,
          body: handler === echo ? { name: 'x' } : undefined,
        });
        expect(res.status).toBe(401);
        expectError(res.json(), 'TOKEN_INVALID');
      }
    });
  }

  it('reads the user record for the auth check with a consistent read, so a role or password change applies at once', async () => {
    const inputs: Array<Record<string, unknown>> = [];
    const stop = watchCalls((_operation, input) => inputs.push({ ...input }));
    try {
      expect((await invoke(maybe, { route: '/api/m', token: goodToken })).status).toBe(200);
    } finally {
      stop();
    }
    const userReads = inputs.filter((i) => JSON.stringify(i.Key) === JSON.stringify(userKey(userId)));
    expect(userReads).toHaveLength(1);
    expect(userReads[0]).toMatchObject({ ConsistentRead: true });
  });

  it('answers 401 without a token where one is required, and anonymous where optional', async () => {
    const res = await invoke(echo, { method: 'POST', route, body: { name: 'x' } });
    expect(res.status).toBe(401);
    expectError(res.json(), 'TOKEN_MISSING');
    const anon = await invoke(maybe, { route: '/api/m' });
    expect(expectEnvelope(anon.json(), z.object({ who: z.null() }))).toEqual({ who: null });
  });

  it('refuses a non-bearer scheme', async () => {
    const res = await invoke(echo, {
      method: 'POST',
      route,
      headers: { authorization: `Basic ${goodToken}` },
      body: { name: 'x' },
    });
    expect(res.status).toBe(401);
  });
});

describe('the DynamoDB client', () => {
  it('refuses any Scan issued through it', async () => {
    await expect(db.send(new ScanCommand({ TableName: TABLE }))).rejects.toBeInstanceOf(ScanForbiddenError);
  });

  it('counts the operations a request makes', async () => {
    startMeasuring({ capacity: true });
    const res = await invoke(maybe, { route: '/api/m', token: goodToken });
    expect(res.status).toBe(200);
    const m = measured();
    expect(m.operations.map((o) => o.command)).toEqual(['GetItem']);
    expect(m.capacityUnits).toBeGreaterThan(0);
  });
});
