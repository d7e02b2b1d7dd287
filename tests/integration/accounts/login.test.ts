import { decodeJwt } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { handler as login } from '#functions/auth/login.ts';
import { handler as getUserData } from '#functions/user/get-user-data.ts';
import { InvalidCredentials } from '#lib/accounts/errors.ts';
import { login as logIn } from '#lib/accounts/login.ts';
import { argon2id, configuredParams } from '#lib/accounts/passwords.ts';
import { THROTTLE, throttleWindow } from '#lib/accounts/rules.ts';
import { LoginResult, User } from '#lib/accounts/schemas.ts';
import { createPendingSignup } from '#lib/accounts/signup.ts';
import { config } from '#lib/config.ts';
import { throttleWindowKey } from '#lib/db/keys.ts';
import { TooManyRequests } from '#lib/errors.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand, UpdateCommand } from '#lib/table/commands.ts';
import { startMeasuring } from '#lib/table/metrics.ts';
import { createConfirmedUser, makeSignup, uniqueEmail } from '#tests/helpers/accounts.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { sortedCommands } from '#tests/helpers/stream.ts';

const post = (body: unknown) => invoke(login, { method: 'POST', route: '/api/auth/login', body });
const comparable = (body: string) => {
  const { time: _time, ...rest } = JSON.parse(body) as Record<string, unknown>;
  return rest;
};

describe('POST /api/auth/login', () => {
  it('answers a token, its expiry and the user; the token reads getUserData', async () => {
    const { user, password } = await createConfirmedUser({ firstName: 'Lin' });
    const before = Date.now();
    const res = await post({ emailAddress: user.emailAddress, password });
    expect(res.status).toBe(200);
    const data = expectEnvelope(res.json(), LoginResult);
    expect(data.user).toEqual(user);
    expect(res.body).not.toMatch(/passwordHash|tokenVersion|tokenHash|\$2[aby]\$|\$argon2id\$/);
    const expiresIn = Date.parse(data.expiresAt) - before;
    expect(expiresIn).toBeGreaterThan((config.JWT_TTL_SECONDS - 5) * 1000);
    expect(expiresIn).toBeLessThanOrEqual((config.JWT_TTL_SECONDS + 1) * 1000);
    expect(decodeJwt(data.token)).toMatchObject({ sub: user.id, role: 0, tv: 0 });

    const me = await invoke(getUserData, { route: '/api/user/getUserData', token: data.token });
    expect(me.status).toBe(200);
    expect(expectEnvelope(me.json(), User)).toEqual(user);
  });

  it('costs a fixed, small number of DynamoDB reads whether the address exists or not', async () => {
    const { user, password } = await createConfirmedUser();
    startMeasuring();
    expect((await post({ emailAddress: user.emailAddress, password })).status).toBe(200);
    // previous throttle window, attempt counted, e-mail item, user, attempt given back, refresh family
    expect(sortedCommands()).toEqual([
      'GetItem',
      'GetItem',
      'GetItem',
      'PutItem',
      'UpdateItem',
      'UpdateItem',
    ]);
    startMeasuring();
    expect((await post({ emailAddress: uniqueEmail(), password })).status).toBe(401);
    // previous throttle window, attempt counted (before the compare), e-mail item
    expect(sortedCommands()).toEqual(['GetItem', 'GetItem', 'UpdateItem']);
  });

  it('treats the address case-insensitively and ignores surrounding spaces', async () => {
    const { user, password } = await createConfirmedUser();
    const res = await post({ emailAddress: `  ${user.emailAddress.toUpperCase()} `, password });
    expect(res.status).toBe(200);
    expect(expectEnvelope(res.json(), LoginResult).user.id).toBe(user.id);
  });

  it('answers an unknown address and a wrong password identically', async () => {
    const { user } = await createConfirmedUser();
    const wrong = await post({ emailAddress: user.emailAddress, password: 'not the password' });
    const unknown = await post({ emailAddress: uniqueEmail(), password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expectError(wrong.json(), 'INVALID_CREDENTIALS');
    expect(comparable(unknown.body)).toEqual(comparable(wrong.body));
    expect(unknown.headers).toEqual(wrong.headers);
  });

  it('runs one Argon2id derivation with the configured parameters for an unknown address, as for a wrong password', async () => {
    // Security item 10: a short-circuit for unknown addresses would answer the same 401 much faster.
    const { user } = await createConfirmedUser();
    const derive = vi.spyOn(argon2id, 'derive');
    try {
      for (const emailAddress of [user.emailAddress, uniqueEmail()]) {
        derive.mockClear();
        const res = await post({ emailAddress, password: 'not the password' });
        expect(res.status).toBe(401);
        expectError(res.json(), 'INVALID_CREDENTIALS');
        expect(derive, emailAddress).toHaveBeenCalledTimes(1);
        const [password, , params] = derive.mock.calls[0] ?? [];
        expect(password).toBe('not the password');
        expect(params).toEqual(configuredParams());
        expect(params?.memoryKib).toBe(config.PASSWORD_HASH_MEMORY_KIB);
      }
    } finally {
      derive.mockRestore();
    }
  });

  it('refuses an address whose sign-up is not confirmed yet, like an unknown one', async () => {
    const body = makeSignup();
    await createPendingSignup(body);
    const res = await post({ emailAddress: body.emailAddress, password: body.password });
    expect(res.status).toBe(401);
    expectError(res.json(), 'INVALID_CREDENTIALS');
  });

  it('answers 429 with Retry-After after 10 failures for one address, even for the right password', async () => {
    const { user, password } = await createConfirmedUser();
    for (let i = 0; i < 10; i++) {
      const res = await post({ emailAddress: user.emailAddress, password: `wrong-${i}-password` });
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    const blocked = await post({ emailAddress: user.emailAddress.toUpperCase(), password });
    expect(blocked.status).toBe(429);
    expectError(blocked.json(), 'TOO_MANY_REQUESTS');
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    // the ten failures fill the current window alone: a slot frees when the window has ended and
    // its weight in the next one has faded to 9 of 10, at most 15 min + 90 s (rules.ts)
    const { windowSeconds, limit } = THROTTLE.loginFailures;
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds + windowSeconds / limit);

    const other = await createConfirmedUser();
    expect((await post({ emailAddress: other.user.emailAddress, password: other.password })).status).toBe(
      200,
    );
  });

  it('compares only 10 of 30 concurrent wrong passwords for one address; the other 20 get 429 at once', async () => {
    const { user, password } = await createConfirmedUser();
    const now = new Date();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post({ emailAddress: user.emailAddress, password: `guess-${i}-pw` }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    const key = throttleWindowKey(
      THROTTLE.loginFailures.action,
      user.emailAddress,
      throttleWindow(THROTTLE.loginFailures, now).start,
    );
    const item = (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item;
    expect(item).toMatchObject({ count: 10 });
    expect((await post({ emailAddress: user.emailAddress, password })).status).toBe(429);
  });

  it('still counts a burst just before a window edge just after it (sliding window), and forgets it a window later', async () => {
    const { user, password } = await createConfirmedUser();
    const windowMs = THROTTLE.loginFailures.windowSeconds * 1000;
    const edge = Math.ceil((Date.now() + windowMs) / windowMs) * windowMs;
    const input = { emailAddress: user.emailAddress, password: 'a wrong guess' };
    for (let i = 0; i < 10; i++) {
      await expect(logIn(input, new Date(edge - 1000))).rejects.toBeInstanceOf(InvalidCredentials);
    }
    await expect(logIn(input, new Date(edge + 1000))).rejects.toBeInstanceOf(TooManyRequests);
    await expect(
      logIn({ emailAddress: user.emailAddress, password }, new Date(edge + 60_000)),
    ).rejects.toBeInstanceOf(TooManyRequests);
    const later = await logIn(
      { emailAddress: user.emailAddress, password },
      new Date(edge + windowMs + 1000),
    );
    expect(later.user.id).toBe(user.id);
  });

  it('throttles an unknown address the same way, so 429 tells nothing about existence', async () => {
    const address = uniqueEmail();
    for (let i = 0; i < 10; i++)
      expect((await post({ emailAddress: address, password: 'whatever1' })).status).toBe(401);
    expect((await post({ emailAddress: address, password: 'whatever1' })).status).toBe(429);
  });

  it('keeps the failure count in DynamoDB, so failures seen by other instances count too', async () => {
    const { user, password } = await createConfirmedUser();
    const now = new Date();
    const window = throttleWindow(THROTTLE.loginFailures, now);
    const key = throttleWindowKey(THROTTLE.loginFailures.action, user.emailAddress, window.start);
    for (let i = 0; i < 3; i++) await post({ emailAddress: user.emailAddress, password: `bad-guess-${i}` });
    const item = (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item;
    expect(item).toMatchObject({ count: 3 });
    expect(Number(item?.ttl)).toBeGreaterThanOrEqual(window.end);
    // Seven more failures arrive through other Lambda instances: they meet in the same item.
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: key,
        UpdateExpression: 'ADD #count :seven',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':seven': 7 },
      }),
    );
    expect((await post({ emailAddress: user.emailAddress, password })).status).toBe(429);
  });

  it.each([
    ['a missing password', { emailAddress: 'a@uni.edu' }],
    ['a password over 72 bytes', { emailAddress: 'a@uni.edu', password: 'p'.repeat(73) }],
    ['a non-.edu address', { emailAddress: 'a@evil.com', password: 'whatever1' }],
    ['an extra field', { emailAddress: 'a@uni.edu', password: 'whatever1', permissionType: 2 }],
  ])('refuses %s with 400', async (_what, body) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expectError(res.json(), 'VALIDATION_FAILED');
  });
});
