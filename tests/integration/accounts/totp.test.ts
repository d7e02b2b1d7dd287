import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, it } from 'vitest';
import { handler as confirmTotp } from '#functions/auth/confirm-totp.ts';
import { handler as disableTotp } from '#functions/auth/disable-totp.ts';
import { handler as enrollTotp } from '#functions/auth/enroll-totp.ts';
import { handler as login } from '#functions/auth/login.ts';
import { handler as refresh } from '#functions/auth/refresh.ts';
import { handler as getStatistics } from '#functions/dashboard/get-statistics.ts';
import { handler as makeAdminRoute } from '#functions/dashboard/make-admin.ts';
import { THROTTLE, throttleWindow } from '#lib/accounts/rules.ts';
import { LoginResult, TotpDisabled, TotpEnrolment, TotpRecoveryCodes } from '#lib/accounts/schemas.ts';
import { hashRecoveryCode } from '#lib/accounts/totp.ts';
import { config } from '#lib/config.ts';
import { AdminUser, Statistics } from '#lib/dashboard/schemas.ts';
import { type ItemKey, outboxKey, throttleWindowKey, userKey } from '#lib/db/keys.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { createConfirmedUser, type TestAccount } from '#tests/helpers/accounts.ts';
import { type InvokeResult, invoke } from '#tests/helpers/lambda.ts';
import { expectOk, expectRefusal } from '#tests/helpers/schema.ts';

const read = async (key: ItemKey) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item;
const recoverySet = (item: Record<string, unknown> | undefined): Set<string> =>
  (item?.totpRecovery as Set<string> | undefined) ?? new Set();

const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: at,
  });

const post = (handler: Parameters<typeof invoke>[0], route: string, body?: unknown, token?: string) =>
  invoke(handler, {
    method: 'POST',
    route,
    ...(body === undefined ? {} : { body }),
    ...(token ? { token } : {}),
  });

const logIn = (account: TestAccount, code?: string) =>
  post(login, '/api/auth/login', {
    emailAddress: account.user.emailAddress,
    password: account.password,
    ...(code === undefined ? {} : { code }),
  });

const refreshTokenOf = (res: InvokeResult) => /^cb_refresh=([^;]*);/.exec(res.cookies[0] ?? '')?.[1] ?? '';

/** An admin with two-factor sign-in on: its secret (as an app would have scanned it) and recovery codes. */
async function enrolledAdmin(permissionType: 1 | 2 = 1) {
  const account = await createConfirmedUser({ permissionType });
  const enrolment = expectOk(
    await post(enrollTotp, '/api/auth/enrollTotp', undefined, account.token),
    TotpEnrolment,
  );
  const confirming = await post(
    confirmTotp,
    '/api/auth/confirmTotp',
    { code: codeAt(enrolment.secret, Date.now()) },
    account.token,
  );
  const confirmed = expectOk(confirming, TotpRecoveryCodes);
  return {
    account,
    ...enrolment,
    recoveryCodes: confirmed.recoveryCodes,
    confirmedToken: confirmed.token,
    confirmedRefresh: refreshTokenOf(confirming),
  };
}

afterEach(() => {
  config.REQUIRE_ADMIN_MFA = false;
});

describe('enrolment', () => {
  it('hands out the secret once (URI and text), keeps it encrypted, and confirms with a code into 10 hashed recovery codes', async () => {
    const { account, uri, secret, recoveryCodes } = await enrolledAdmin();
    expect(uri).toMatch(
      /^otpauth:\/\/totp\/Campus%20Books:.+\?issuer=Campus%20Books&secret=[A-Z2-7]+&algorithm=SHA1&digits=6&period=30$/,
    );
    expect(uri).toContain(`secret=${secret}`);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await read(userKey(account.user.id));
    expect(stored?.totpPending).toBeUndefined();
    expect(typeof stored?.totpSecret).toBe('string');
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect([...recoverySet(stored)].sort()).toEqual(
      recoveryCodes.map((c) => hashRecoveryCode(account.user.id, c)).sort(),
    );
    for (const code of recoveryCodes) expect(JSON.stringify(stored)).not.toContain(code);
    // the secret is never answered again
    expectRefusal(
      await post(enrollTotp, '/api/auth/enrollTotp', undefined, account.token),
      409,
      'TOTP_ACTIVE',
    );
  });

  it('refuses a student (403) and a wrong confirmation code (400, still pending)', async () => {
    const student = await createConfirmedUser();
    expectRefusal(
      await post(enrollTotp, '/api/auth/enrollTotp', undefined, student.token),
      403,
      'ROLE_REQUIRED',
    );
    const owner = await createConfirmedUser({ permissionType: 2 });
    const { secret } = expectOk(
      await post(enrollTotp, '/api/auth/enrollTotp', undefined, owner.token),
      TotpEnrolment,
    );
    const wrong = codeAt(secret, Date.now() + 10 * 60_000);
    expectRefusal(
      await post(confirmTotp, '/api/auth/confirmTotp', { code: wrong }, owner.token),
      400,
      'TOTP_CODE_INVALID',
    );
    const stored = await read(userKey(owner.user.id));
    expect(stored?.totpSecret).toBeUndefined();
    expect(typeof stored?.totpPending).toBe('string');
    // login still needs no code until confirmed
    expect((await logIn(owner)).status).toBe(200);
  });
});

describe('login with a second factor', () => {
  it('needs a code once enrolled (401 MFA_REQUIRED); a code is accepted once and refused on replay; the token and every refresh say mfa', async () => {
    const { account, secret } = await enrolledAdmin();
    expectRefusal(await logIn(account), 401, 'MFA_REQUIRED');
    // the confirmation used this step's code: the next step's is the next one good
    const code = codeAt(secret, Date.now() + 30_000);
    const res = await logIn(account, code);
    const session = expectOk(res, LoginResult);
    expect(decodeJwt(session.token)).toMatchObject({ sub: account.user.id, mfa: true });
    const stored = await read(userKey(account.user.id));
    expect(stored?.totpLastStep).toBe(Math.floor((Date.now() + 30_000) / 30_000));
    // replayed within its window
    expectRefusal(await logIn(account, code), 401, 'MFA_CODE_INVALID');
    // and the confirmation's own code (an earlier step) too
    expectRefusal(await logIn(account, codeAt(secret, Date.now())), 401, 'MFA_CODE_INVALID');
    // a refresh of the session keeps saying it passed a second factor
    const refreshed = expectOk(
      await invoke(refresh, {
        method: 'POST',
        route: '/api/auth/refresh',
        headers: { 'x-csrf': '1' },
        cookies: [`cb_refresh=${refreshTokenOf(res)}`],
      }),
      LoginResult,
    );
    expect(decodeJwt(refreshed.token)).toMatchObject({ mfa: true });
  });

  it('takes each recovery code once', async () => {
    const { account, recoveryCodes } = await enrolledAdmin(2);
    const [first, second] = recoveryCodes as [string, string];
    const session = expectOk(await logIn(account, first.toUpperCase()), LoginResult);
    expect(decodeJwt(session.token)).toMatchObject({ mfa: true });
    expectRefusal(await logIn(account, first), 401, 'MFA_CODE_INVALID');
    expectOk(await logIn(account, second.replace('-', '')), LoginResult);
    expectRefusal(await logIn(account, second), 401, 'MFA_CODE_INVALID');
    const stored = await read(userKey(account.user.id));
    expect(recoverySet(stored).size).toBe(8);
    expect(recoverySet(stored).has(hashRecoveryCode(account.user.id, first))).toBe(false);
  });

  it('throttles wrong codes: 5 count as login failures, then 429 even for a right code', async () => {
    const { account, secret } = await enrolledAdmin();
    for (let i = 0; i < 5; i += 1) expectRefusal(await logIn(account, '000000'), 401, 'MFA_CODE_INVALID');
    const blocked = await logIn(account, codeAt(secret, Date.now() + 30_000));
    expectRefusal(blocked, 429, 'TOO_MANY_REQUESTS');
    const now = new Date();
    const failures = await read(
      throttleWindowKey(
        THROTTLE.loginFailures.action,
        account.record.emailNormalised,
        throttleWindow(THROTTLE.loginFailures, now).start,
      ),
    );
    expect(failures?.count).toBe(6); // the 5 wrong codes and the refused sixth attempt
    const codes = await read(
      throttleWindowKey(
        THROTTLE.totpFailures.action,
        account.user.id,
        throttleWindow(THROTTLE.totpFailures, now).start,
      ),
    );
    expect(codes?.count).toBe(5);
  });

  it('turns off with the password and a code; login needs no code after', async () => {
    const { account, secret } = await enrolledAdmin();
    const code = codeAt(secret, Date.now() + 30_000);
    expectRefusal(
      await post(disableTotp, '/api/auth/disableTotp', { password: 'wrong password!', code }, account.token),
      403,
      'WRONG_PASSWORD',
    );
    expectOk(
      await post(disableTotp, '/api/auth/disableTotp', { password: account.password, code }, account.token),
      TotpDisabled,
    );
    const stored = await read(userKey(account.user.id));
    expect(stored?.totpSecret).toBeUndefined();
    expect(stored?.totpRecovery).toBeUndefined();
    const session = expectOk(await logIn(account), LoginResult);
    expect(decodeJwt(session.token)).toMatchObject({ mfa: false });
  });
});

describe('REQUIRE_ADMIN_MFA', () => {
  it('refuses an admin whose session passed no second factor on a dashboard route (403), and lets one who did in', async () => {
    const { account, secret } = await enrolledAdmin();
    const plain = await createConfirmedUser({ permissionType: 1 }); // never enrolled
    const withCode = expectOk(await logIn(account, codeAt(secret, Date.now() + 30_000)), LoginResult);
    const stats = (token: string) => invoke(getStatistics, { route: '/api/dashboard/getStatistics', token });
    // off (local and test default): a password-only admin still gets in
    expect((await stats(plain.token)).status).toBe(200);
    config.REQUIRE_ADMIN_MFA = true;
    const refused = expectRefusal(await stats(plain.token), 403, 'MFA_REQUIRED');
    expect(refused.error).toMatch(/two-factor/);
    expectRefusal(await stats(account.token), 403, 'MFA_REQUIRED'); // enrolled, but this token passed no code
    expectOk(await stats(withCode.token), Statistics);
  });

  it('lets the session that confirmed two-factor sign-in in at once: its new token and refresh carry the factor', async () => {
    const { account, confirmedToken, confirmedRefresh } = await enrolledAdmin();
    expect(decodeJwt(confirmedToken)).toMatchObject({ sub: account.user.id, mfa: true });
    expect(confirmedRefresh).not.toBe('');
    const stats = (token: string) => invoke(getStatistics, { route: '/api/dashboard/getStatistics', token });
    config.REQUIRE_ADMIN_MFA = true;
    expectRefusal(await stats(account.token), 403, 'MFA_REQUIRED'); // the token from before
    expectOk(await stats(confirmedToken), Statistics);
    // the refresh cookie it set keeps the factor too
    const { token } = expectOk(
      await invoke(refresh, {
        method: 'POST',
        route: '/api/auth/refresh',
        headers: { 'x-csrf': '1' },
        cookies: [`cb_refresh=${confirmedRefresh}`],
      }),
      LoginResult,
    );
    expect(decodeJwt(token)).toMatchObject({ mfa: true });
    expectOk(await stats(token), Statistics);
  });

  it('makeAdmin e-mails the new admin to turn two-factor sign-in on', async () => {
    const owner = await createConfirmedUser({ permissionType: 2 });
    const student = await createConfirmedUser({ firstName: 'Noor' });
    const before = new Date().toISOString();
    expectOk(
      await invoke(makeAdminRoute, {
        method: 'PUT',
        route: '/api/dashboard/makeAdmin',
        token: owner.token,
        body: { userId: student.user.id },
      }),
      AdminUser,
    );
    const { QueryCommand } = await import('#lib/table/commands.ts');
    const { Items } = await db.send(
      new QueryCommand({
        TableName: TABLE,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk >= :from',
        ExpressionAttributeValues: { ':pk': 'OUTBOX', ':from': before.slice(0, 19) },
      }),
    );
    const mail = (Items ?? []).find((i) => i.recipientId === student.user.id);
    expect(mail).toBeDefined();
    const stored = await read(outboxKey(mail?.id as string));
    expect(stored?.mail?.subject).toBe('You are an admin: turn on two-factor sign-in');
    expect(stored?.mail?.text).toContain('Hello Noor,');
    expect(stored?.mail?.text).toContain('under Settings, "Two-factor sign-in"');
    // the link opens the page that has it (the web app's /settings), in both parts
    const link = `${(config.APP_URL ?? config.PUBLIC_URL).replace(/\/+$/, '')}/settings`;
    expect(stored?.mail?.text).toContain(`Open your settings: ${link}`);
    expect(stored?.mail?.html).toContain(`<a href="${link}">Open your settings</a>`);
    expect(stored?.category).toBeUndefined();
  });
});
