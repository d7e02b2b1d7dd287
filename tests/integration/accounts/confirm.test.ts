import { describe, expect, it } from 'vitest';
import { handler as confirm } from '#functions/auth/confirm.ts';
import { handler as confirmLink } from '#functions/auth/confirm-link.ts';
import { handler as signup } from '#functions/auth/signup.ts';
import { hashEmailToken, newEmailToken } from '#lib/accounts/rules.ts';
import { LoginResult, User } from '#lib/accounts/schemas.ts';
import { confirmationMailFor, confirmSignup, createPendingSignup } from '#lib/accounts/signup.ts';
import { getGlobalStats } from '#lib/db/counters.ts';
import { emailKey, spentTokenKey, tokenKey, userKey, userStatsKey } from '#lib/db/keys.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { login } from '#tests/helpers/account-calls.ts';
import { DEFAULT_PASSWORD, emailTokenIn, makeSignup, sendQueuedMail } from '#tests/helpers/accounts.ts';
import { waitForEmail } from '#tests/helpers/e2e.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';

const linkRoute = '/api/auth/confirm/{token}';
const openLink = (token: string) => invoke(confirmLink, { route: linkRoute, pathParameters: { token } });
const postConfirm = (token: string, password = DEFAULT_PASSWORD) =>
  invoke(confirm, { method: 'POST', route: '/api/auth/confirm', body: { token, password } });
const postForm = (token: string, password = DEFAULT_PASSWORD) =>
  invoke(confirm, {
    method: 'POST',
    route: '/api/auth/confirm',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    rawBody: new URLSearchParams({ token, password }).toString(),
  });
const get = async (key: { pk: string; sk: string }) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item;
const totalUsers = async () => Number((await getGlobalStats()).totalUsers ?? 0);
const HOUR = 3600 * 1000;

function alter(token: string): string {
  const last = token.at(-1) === 'A' ? 'B' : 'A';
  return `${token.slice(0, -1)}${last}`;
}

describe('GET /api/auth/confirm/{token} (the e-mailed link)', () => {
  it('changes nothing: answers a page whose form asks for the sign-up password, and the link stays usable', async () => {
    const body = makeSignup({ firstName: 'Grace' });
    await invoke(signup, { method: 'POST', route: '/api/auth/signup', body });
    await sendQueuedMail();
    const token = emailTokenIn(await waitForEmail(body.emailAddress, /Confirm/));
    const usersBefore = await totalUsers();

    // A mail scanner (or anyone) following the link twice.
    for (let i = 0; i < 2; i++) {
      const res = await openLink(token);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.body).toMatch(/<form method="post" action="[^"]*\/api\/auth\/confirm">/);
      expect(res.body).toContain(`name="token" value="${token}"`);
      expect(res.body).toContain('name="password" type="password"');
      expect(res.body).toContain('Grace');
    }
    expect(await get(emailKey(body.emailAddress))).toBeUndefined();
    expect(await totalUsers()).toBe(usersBefore);
    expect(await get(tokenKey(hashEmailToken(token)))).toMatchObject({ kind: 'confirm' });
    const early = await login(body.emailAddress, body.password);
    expect(early.status).toBe(401);
  });

  it('escapes the name it shows on the page', async () => {
    const token = await createPendingSignup(makeSignup({ firstName: '<script>alert(1)</script>' }));
    const res = await openLink(token);
    expect(res.status).toBe(200);
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('&#60;script&#62;');
  });

  it('answers a reopened link that confirmed its account with a page saying so and a way to log in', async () => {
    const token = await createPendingSignup(makeSignup());
    expect((await postConfirm(token)).status).toBe(200);
    expect(await get(spentTokenKey(hashEmailToken(token)))).toMatchObject({
      as: 'confirmed',
      ttl: expect.any(Number),
    });
    const again = await openLink(token);
    expect(again.status).toBe(200);
    expect(again.headers['content-type']).toMatch(/^text\/html/);
    expect(again.body).toContain('Your account is already confirmed');
    expect(again.body).toMatch(/<a href="[^"]+">Log in<\/a>/);
    expect(again.body).not.toContain('<form');
    // and it confirms nothing twice
    expectError((await postConfirm(token)).json(), 'EMAIL_TOKEN_INVALID');
  });

  it('answers a link replaced by a resend with a page saying to open the newest e-mail', async () => {
    const body = makeSignup();
    const token = await createPendingSignup(body);
    const resent = await confirmationMailFor(
      body.emailAddress.toLowerCase(),
      new Date(),
      hashEmailToken(token),
    );
    expect(resent).not.toBeNull();
    const old = await openLink(token);
    expect(old.status).toBe(400);
    expect(old.body).toContain('This link was replaced');
    expect(old.body).toContain('newest e-mail');
    expect(await get(spentTokenKey(hashEmailToken(token)))).toMatchObject({ as: 'replaced' });
  });

  it.each([
    ['an altered token', async () => alter(await createPendingSignup(makeSignup()))],
    ['an unknown token', async () => newEmailToken().token],
    ['garbage', async () => '<b>not-a-token</b>'],
    ['an over-long token', async () => 'a'.repeat(5000)],
  ])('answers a 400 HTML page for %s', async (_what, make) => {
    const res = await openLink(await make());
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).not.toContain('<b>');
  });

  it('answers the 400 page for a sign-up older than 24 hours even while its item still exists (TTL deletes late)', async () => {
    const body = makeSignup();
    const token = await createPendingSignup(body, new Date(Date.now() - 24 * HOUR - 1000));
    expect(await get(tokenKey(hashEmailToken(token)))).toBeDefined();
    expect((await openLink(token)).status).toBe(400);
    expectError((await postConfirm(token)).json(), 'EMAIL_TOKEN_INVALID');
    expect(await get(emailKey(body.emailAddress))).toBeUndefined();
  });

  it('accepts a sign-up a little younger than 24 hours', async () => {
    const token = await createPendingSignup(makeSignup(), new Date(Date.now() - 23 * HOUR));
    expect((await openLink(token)).status).toBe(200);
    expect((await postConfirm(token)).status).toBe(200);
  });
});

describe('POST /api/auth/confirm', () => {
  it('confirms with the token and the sign-up password, creates the account, answers the user without secrets', async () => {
    const body = makeSignup({ emailAddress: `  Mixed.Case-${Date.now()}@Uni.EDU `, firstName: 'Grace' });
    const token = await createPendingSignup(body);
    const usersBefore = await totalUsers();
    const res = await postConfirm(token, body.password);
    expect(res.status).toBe(200);
    const user = expectEnvelope(res.json(), User);
    expect(user.emailAddress).toBe(body.emailAddress.trim());
    expect(user.permissionType).toBe(0);
    expect(res.body).not.toMatch(/passwordHash|tokenVersion|tokenHash|\$2[aby]\$|\$argon2id\$/);
    const normalised = body.emailAddress.trim().toLowerCase();
    expect(await get(emailKey(normalised))).toMatchObject({ userId: user.id });
    expect(await get(userKey(user.id))).toMatchObject({
      type: 'user',
      emailNormalised: normalised,
      firstName: 'Grace',
      permissionType: 0,
      tokenVersion: 0,
      gsi1pk: 'USERS',
    });
    expect(await get(userStatsKey(user.id))).toMatchObject({
      booksBought: 0,
      booksSold: 0,
      moneyMade: 0,
      activeListings: 0,
      openRequests: 0,
    });
    expect(await totalUsers()).toBe(usersBefore + 1);
    expect(await get(tokenKey(hashEmailToken(token)))).toBeUndefined();
    const loggedIn = await login(body.emailAddress, body.password);
    expect(loggedIn.status).toBe(200);
    expectEnvelope(loggedIn.json(), LoginResult);
  });

  it('refuses a password other than the one chosen at sign-up with 400, creates nothing and keeps the link usable', async () => {
    const body = makeSignup();
    const token = await createPendingSignup(body);
    const wrong = await postConfirm(token, 'the attacker is guessing');
    expect(wrong.status).toBe(400);
    expectError(wrong.json(), 'WRONG_PASSWORD');
    expect(await get(emailKey(body.emailAddress))).toBeUndefined();
    expect(await get(tokenKey(hashEmailToken(token)))).toMatchObject({ kind: 'confirm' });
    expect((await postConfirm(token, body.password)).status).toBe(200);
    expect(await get(emailKey(body.emailAddress))).toBeDefined();
  });

  it('a new sign-up for a pending address replaces the pending one: the first link and password stop working', async () => {
    const email = makeSignup().emailAddress;
    const attacker = makeSignup({ emailAddress: email, password: 'attacker chose this' });
    const owner = makeSignup({ emailAddress: email.toUpperCase(), password: 'owner chose this one' });
    const attackerToken = await createPendingSignup(attacker);
    const ownerToken = await createPendingSignup(owner);

    expect(await get(tokenKey(hashEmailToken(attackerToken)))).toBeUndefined();
    expectError((await postConfirm(attackerToken, attacker.password)).json(), 'EMAIL_TOKEN_INVALID');
    const replaced = await openLink(attackerToken);
    expect(replaced.status).toBe(400);
    expect(replaced.body).toContain('This link was replaced');
    const res = await postConfirm(ownerToken, owner.password);
    expect(res.status).toBe(200);
    const user = expectEnvelope(res.json(), User);
    expect(await get(emailKey(email))).toMatchObject({ userId: user.id });
  });

  it('confirms from the page’s urlencoded form and answers an HTML page', async () => {
    const body = makeSignup({ firstName: 'Ada' });
    const token = await createPendingSignup(body);
    const wrong = await postForm(token, 'not my password');
    expect(wrong.status).toBe(400);
    expect(wrong.headers['content-type']).toMatch(/^text\/html/);
    expect(wrong.body).toContain('<form');
    expect(await get(emailKey(body.emailAddress))).toBeUndefined();

    const res = await postForm(token, body.password);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('confirmed');
    expect(res.body).toContain('Ada');
    expect(await get(emailKey(body.emailAddress))).toBeDefined();

    const replay = await postForm(token, body.password);
    expect(replay.status).toBe(400);
    expect(replay.body).toContain('does not work');
  });

  it('refuses a form that sends a field twice with 400', async () => {
    const body = makeSignup();
    const token = await createPendingSignup(body);
    const res = await invoke(confirm, {
      method: 'POST',
      route: '/api/auth/confirm',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: `token=${token}&password=x&password=${encodeURIComponent(body.password)}`,
    });
    expect(res.status).toBe(400);
    expect(await get(emailKey(body.emailAddress))).toBeUndefined();
  });

  it('refuses a replayed, altered or expired token with 400', async () => {
    const token = await createPendingSignup(makeSignup());
    expect((await postConfirm(token)).status).toBe(200);
    expectError((await postConfirm(token)).json(), 'EMAIL_TOKEN_INVALID');
    const other = await createPendingSignup(makeSignup());
    const altered = await postConfirm(alter(other));
    expect(altered.status).toBe(400);
    expectError(altered.json(), 'EMAIL_TOKEN_INVALID');
    const old = await createPendingSignup(makeSignup(), new Date(Date.now() - 25 * HOUR));
    expectError((await postConfirm(old)).json(), 'EMAIL_TOKEN_INVALID');
    expect((await postConfirm(other)).status).toBe(200);
  });

  it('refuses unknown fields, a missing token and a missing password with 400', async () => {
    const token = await createPendingSignup(makeSignup());
    for (const body of [{ token, password: DEFAULT_PASSWORD, permissionType: 2 }, {}, { token }]) {
      const res = await invoke(confirm, { method: 'POST', route: '/api/auth/confirm', body });
      expect(res.status).toBe(400);
      expectError(res.json(), 'VALIDATION_FAILED');
    }
    expect(await get(tokenKey(hashEmailToken(token)))).toBeDefined();
  });
});

describe('confirmation under concurrency', () => {
  it('lets exactly one of several concurrent uses of one token succeed', async () => {
    const body = makeSignup();
    const token = await createPendingSignup(body);
    const before = await totalUsers();
    const results = await Promise.all([
      postConfirm(token),
      postForm(token),
      postConfirm(token),
      postForm(token),
      postConfirm(token),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(4);
    expect(await totalUsers()).toBe(before + 1);
  });

  it('creates one account when two sign-ups of one address (any case) are confirmed at once', async () => {
    const body = makeSignup();
    const tokens = await Promise.all([
      createPendingSignup(body),
      createPendingSignup({ ...body, emailAddress: body.emailAddress.toUpperCase() }),
      createPendingSignup({ ...body, firstName: 'Other' }),
    ]);
    const results = await Promise.allSettled(tokens.map((t) => confirmSignup(t, body.password)));
    const created = results.filter((r) => r.status === 'fulfilled');
    expect(created).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(2);
    const owner = await get(emailKey(body.emailAddress));
    expect(owner?.userId).toBe(created[0]?.status === 'fulfilled' ? created[0].value.id : 'none');
    // The losers' tokens stay refused later too.
    for (const t of tokens) expect((await postConfirm(t)).status).toBe(400);
  });
});
