import { describe, expect, it } from 'vitest';
import { handler as login } from '#functions/auth/login.ts';
import { deviceCookieName, newUnlockToken } from '#lib/accounts/devices.ts';
import { unlockMailFor } from '#lib/accounts/login.ts';
import { LoginResult } from '#lib/accounts/schemas.ts';
import { INDEX, OUTBOX_DUE_PK } from '#lib/db/keys.ts';
import { deviceCookie } from '#lib/http/cookies.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { QueryCommand } from '#lib/table/commands.ts';
import { createConfirmedUser, type TestAccount } from '#tests/helpers/accounts.ts';
import { type InvokeResult, invoke } from '#tests/helpers/lambda.ts';
import { expectOk, expectRefusal } from '#tests/helpers/schema.ts';

const attempt = (account: TestAccount, password: string, cookies?: string[], extra: object = {}) =>
  invoke(login, {
    method: 'POST',
    route: '/api/auth/login',
    body: { emailAddress: account.user.emailAddress, password, ...extra },
    ...(cookies ? { cookies } : {}),
  });

/** The `name=value` of the device cookie a login answered. */
function deviceCookieOf(res: InvokeResult): string {
  const line = res.cookies.find((c) => c.startsWith('cb_device_'));
  expect(line).toBeDefined();
  return (line as string).split(';')[0] as string;
}

/** The unlock e-mails queued for an address (the outbox's due index). */
async function unlockMailsFor(address: string) {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: INDEX.gsi1,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': OUTBOX_DUE_PK },
      ConsistentRead: false,
    }),
  );
  return Items.filter((i) => i.account?.action === 'login-unlock' && i.account?.address === address);
}

describe('device cookies (login throttling that strangers cannot turn against a user)', () => {
  it('an owner with a known device logs in while an unknown client has just made 20 failed attempts', async () => {
    const owner = await createConfirmedUser({ permissionType: 2 });
    const first = await attempt(owner, owner.password);
    expectOk(first, LoginResult);
    const device = deviceCookieOf(first);
    expect(device.startsWith(`${deviceCookieName(owner.record.emailNormalised)}=`)).toBe(true);
    expect(first.cookies.find((c) => c.startsWith('cb_device_'))).toMatch(
      /; Path=\/api\/auth\/login; Max-Age=31536000; HttpOnly; SameSite=Strict$/,
    );

    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) statuses.push((await attempt(owner, `wrong password ${i}`)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(10).fill(429));
    // every unknown client is locked out, the right password included
    expectRefusal(await attempt(owner, owner.password), 429, 'TOO_MANY_REQUESTS');
    // a device cookie made for another account does not count as known here
    const other = await createConfirmedUser();
    const otherDevice = deviceCookieOf(await attempt(other, other.password)).split('=')[1];
    const forged = `${deviceCookieName(owner.record.emailNormalised)}=${otherDevice}`;
    expectRefusal(await attempt(owner, owner.password, [forged]), 429, 'TOO_MANY_REQUESTS');
    // the known device gets in, and gets its cookie renewed
    const known = await attempt(owner, owner.password, [device]);
    const session = expectOk(known, LoginResult);
    expect(session.user.id).toBe(owner.user.id);
    expect(deviceCookieOf(known)).not.toBe(device);

    // one unlock e-mail for the lockout, however many refusals
    const mails = await unlockMailsFor(owner.record.emailNormalised);
    expect(mails).toHaveLength(1);
    const mail = await unlockMailFor(owner.record.emailNormalised);
    expect(mail?.subject).toBe('Your Campus Books account was locked for new browsers');
    expect(mail?.text).toMatch(/\/login\?unlock=\d{10}\.[A-Za-z0-9_-]{43}/);
  });

  it("a known device's own failures count against it alone", async () => {
    const user = await createConfirmedUser();
    const device = deviceCookieOf(await attempt(user, user.password));
    for (let i = 0; i < 10; i += 1)
      expect((await attempt(user, 'wrong password', [device])).status).toBe(401);
    expectRefusal(await attempt(user, user.password, [device]), 429, 'TOO_MANY_REQUESTS');
    // the address (unknown clients) was not touched by the device's failures
    expectOk(await attempt(user, user.password), LoginResult);
  });

  it("the unlock link's token lets a new browser in during a lockout, with the password", async () => {
    const user = await createConfirmedUser();
    for (let i = 0; i < 10; i += 1) await attempt(user, 'wrong password');
    expectRefusal(await attempt(user, user.password), 429, 'TOO_MANY_REQUESTS');
    const unlockToken = newUnlockToken(user.record.emailNormalised, new Date());
    expect((await attempt(user, 'wrong password', undefined, { unlockToken })).status).toBe(401);
    const res = await attempt(user, user.password, undefined, { unlockToken });
    expectOk(res, LoginResult);
    deviceCookieOf(res);
    // a token of another address, or an expired one, is no unlock
    const stale = newUnlockToken(user.record.emailNormalised, new Date(Date.now() - 2 * 3600_000));
    expectRefusal(
      await attempt(user, user.password, undefined, { unlockToken: stale }),
      429,
      'TOO_MANY_REQUESTS',
    );
    const foreign = newUnlockToken('someone-else@test-uni.edu', new Date());
    expectRefusal(
      await attempt(user, user.password, undefined, { unlockToken: foreign }),
      429,
      'TOO_MANY_REQUESTS',
    );
  });

  it('is Secure outside the emulated stages', () => {
    expect(deviceCookie('cb_device_x', 'v', 'prod')).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
  });
});
