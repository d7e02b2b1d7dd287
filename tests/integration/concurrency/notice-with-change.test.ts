/**
 * A change of a user's account and the e-mail telling them are one transaction: an admin's (suspend,
 * reinstate, revoke admin: lib/db/users.ts changeUserWithAudit) and the user's own (a password
 * change or reset, an account deletion). With every separate PutItem of an outbox message refused by
 * the fault proxy (throttled past the client's retries), the change still commits with its e-mail.
 * Before, the e-mail was a PutItem after the change: the change stood, the call answered 503, and a
 * repeat call found nothing left to do (or was refused: the password had changed), so the user was
 * never told.
 */
import { describe, expect, it } from 'vitest';
import { faultProxyForFile } from '#tests/helpers/dynamodb-fault-proxy.ts';

// Every module below reaches DynamoDB through the proxy: the endpoint is set before lib/config.ts loads.
const proxy = await faultProxyForFile();
const { handler: suspendHandler } = await import('#functions/dashboard/suspend-user.ts');
const { handler: reinstateHandler } = await import('#functions/dashboard/reinstate-user.ts');
const { handler: revokeAdminHandler } = await import('#functions/dashboard/revoke-admin.ts');
const { handler: updatePassword } = await import('#functions/auth/update-password.ts');
const { handler: passwordReset } = await import('#functions/auth/password-reset.ts');
const { createResetToken } = await import('#lib/accounts/password.ts');
const { deleteAccountCall, login } = await import('#tests/helpers/account-calls.ts');
const { createConfirmedUser, emailsBeforeMarker, sendQueuedMail } = await import(
  '#tests/helpers/accounts.ts'
);
const { readItem } = await import('#tests/helpers/cart.ts');
const { invoke } = await import('#tests/helpers/lambda.ts');
const { emailKey, userKey } = await import('#lib/db/keys.ts');

/** Throttles every PutItem of an outbox message (a message queued on its own), nothing else. */
function refuseOutboxPuts(): () => number {
  let refused = 0;
  proxy.decide = (op, body) => {
    const pk = (body.Item as { pk?: { S?: string } } | undefined)?.pk?.S ?? '';
    if (op !== 'PutItem' || !pk.startsWith('OUTBOX#')) return null;
    refused += 1;
    return 'throttling';
  };
  return () => refused;
}

/** The subjects of the e-mails `to` got (the outbox sent as its consumer would, the proxy at rest). */
async function subjectsTo(to: string): Promise<string[]> {
  proxy.decide = () => null;
  await sendQueuedMail(2);
  return (await emailsBeforeMarker(to))
    .filter((m) => !m.subject.startsWith('Test marker '))
    .map((m) => m.subject);
}

const put = (handler: typeof suspendHandler, route: string, token: string, body: unknown) =>
  invoke(handler, { method: 'PUT', route, token, body });

describe('an admin change and the e-mail telling the user', () => {
  it('commit together: suspend, reinstate and revoke answer 200 and the user is told, with separate outbox writes refused', async () => {
    const owner = await createConfirmedUser({ permissionType: 2 });
    const target = await createConfirmedUser({ permissionType: 1, firstName: 'Tove' });
    const to = target.record.emailAddress;
    const refused = refuseOutboxPuts();

    const suspended = await put(suspendHandler, '/api/dashboard/suspendUser', owner.token, {
      userId: target.record.id,
      reason: 'Testing the outbox.',
    });
    expect(suspended.status).toBe(200);
    expect((await readItem(userKey(target.record.id)))?.suspended).toBe(true);
    const reinstated = await put(reinstateHandler, '/api/dashboard/reinstateUser', owner.token, {
      userId: target.record.id,
    });
    expect(reinstated.status).toBe(200);
    const revoked = await put(revokeAdminHandler, '/api/dashboard/revokeAdmin', owner.token, {
      userId: target.record.id,
    });
    expect(revoked.status).toBe(200);
    const stored = await readItem(userKey(target.record.id));
    expect(stored?.suspended).toBeUndefined();
    expect(stored?.permissionType).toBe(0);
    expect(refused()).toBe(0); // no e-mail was queued on its own
    expect(await subjectsTo(to)).toEqual([
      'Your Campus Books account was suspended',
      'Your Campus Books account was reinstated',
      'You are no longer an admin of Campus Books',
    ]);
  });
});

describe("a user's own change and the e-mail telling them", () => {
  it('commit together: a password change, a reset and an account deletion answer 200 and are told, with separate outbox writes refused', async () => {
    const account = await createConfirmedUser({ firstName: 'Ines' });
    const to = account.record.emailAddress;
    const refused = refuseOutboxPuts();

    const changed = await invoke(updatePassword, {
      method: 'POST',
      route: '/api/auth/updatePassword',
      token: account.token,
      body: { password: account.password, newPassword: 'a brand new passphrase' },
    });
    expect(changed.status).toBe(200);
    const reset = await invoke(passwordReset, {
      method: 'POST',
      route: '/api/auth/passwordReset',
      body: { token: await createResetToken(account.record.id), password: 'another new passphrase' },
    });
    expect(reset.status).toBe(200);
    expect((await login(to, 'another new passphrase')).status).toBe(200);
    expect(refused()).toBe(0);
    expect(await subjectsTo(to)).toEqual([
      'Your Campus Books password was changed',
      'Your Campus Books password was changed',
    ]);

    const leaving = await createConfirmedUser({ firstName: 'Ola' });
    const refusedOnDeletion = refuseOutboxPuts();
    expect((await deleteAccountCall(leaving.token, leaving.password)).status).toBe(200);
    expect(await readItem(userKey(leaving.record.id))).toBeUndefined();
    expect(await readItem(emailKey(leaving.record.emailNormalised))).toBeUndefined();
    expect(refusedOnDeletion()).toBe(0);
    expect(await subjectsTo(leaving.record.emailAddress)).toEqual(['Your Campus Books account was deleted']);
  });
});
