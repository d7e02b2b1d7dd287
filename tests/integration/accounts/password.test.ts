import { describe, expect, it } from 'vitest';
import { handler as passwordReset } from '#functions/auth/password-reset.ts';
import { handler as passwordResetRequest } from '#functions/auth/password-reset-request.ts';
import { handler as updatePassword } from '#functions/auth/update-password.ts';
import { InvalidEmailToken } from '#lib/accounts/errors.ts';
import { createResetToken } from '#lib/accounts/password.ts';
import { hashEmailToken } from '#lib/accounts/rules.ts';
import { Message, NewToken } from '#lib/accounts/schemas.ts';
import { confirmSignup, createPendingSignup } from '#lib/accounts/signup.ts';
import { tokenKey } from '#lib/db/keys.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { withoutTime as comparable, login as logIn, me } from '#tests/helpers/account-calls.ts';
import {
  createConfirmedUser,
  emailsBeforeMarker,
  emailTokenIn,
  makeSignup,
  uniqueEmail,
} from '#tests/helpers/accounts.ts';
import { waitForEmail } from '#tests/helpers/e2e.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { commandsOf, deliverOutbox, StreamReader } from '#tests/helpers/stream.ts';

const NEW_PASSWORD = 'a brand new passphrase';
const stream = new StreamReader();
const askReset = (emailAddress: string) =>
  invoke(passwordResetRequest, {
    method: 'POST',
    route: '/api/auth/passwordResetRequest',
    body: { emailAddress },
  });
/** The request, then the stream consumer's half (the look-up and the e-mail). */
const requestReset = async (emailAddress: string) => {
  const res = await askReset(emailAddress);
  await deliverOutbox(stream);
  return res;
};
const reset = (token: string, password = NEW_PASSWORD) =>
  invoke(passwordReset, { method: 'POST', route: '/api/auth/passwordReset', body: { token, password } });
const change = (token: string, body: unknown) =>
  invoke(updatePassword, { method: 'POST', route: '/api/auth/updatePassword', token, body });

describe('POST /api/auth/passwordResetRequest', () => {
  it('answers 202 and e-mails a single-use link good for one hour; only its hash is stored', async () => {
    const { user } = await createConfirmedUser();
    const before = Date.now();
    const res = await requestReset(user.emailAddress.toUpperCase());
    expect(res.status).toBe(202);
    expectEnvelope(res.json(), Message);
    const mail = await waitForEmail(user.emailAddress, /Reset your Campus Books password/);
    const token = emailTokenIn(mail);
    expect(mail.body.html).toContain(token);
    const item = (await db.send(new GetCommand({ TableName: TABLE, Key: tokenKey(hashEmailToken(token)) })))
      .Item;
    expect(item).toMatchObject({ kind: 'reset', userId: user.id });
    expect(JSON.stringify(item)).not.toContain(token);
    const lifetime = Date.parse(String(item?.expiresAt)) - before;
    expect(lifetime).toBeGreaterThan(3600 * 1000 - 1000);
    expect(lifetime).toBeLessThan(3600 * 1000 + 60_000);
  });

  it('answers an unknown address exactly the same and sends nothing', async () => {
    const { user } = await createConfirmedUser();
    const known = await requestReset(user.emailAddress);
    const address = uniqueEmail();
    const unknown = await requestReset(address);
    expect(unknown.status).toBe(202);
    expect(comparable(unknown.body)).toEqual(comparable(known.body));
    expect(await emailsBeforeMarker(address)).toEqual([]);
  });

  it('does the same work for an address with an account and one without: the same DynamoDB commands, no e-mail until the consumer runs', async () => {
    const { user } = await createConfirmedUser();
    const unknownAddress = uniqueEmail();
    await stream.skipToEnd();
    const known = await commandsOf(() => askReset(user.emailAddress));
    const unknown = await commandsOf(() => askReset(unknownAddress));
    expect(known).toEqual(unknown);
    expect(known).toContain('PutItem OUTBOX');
    expect(known.filter((c) => /USER|EMAIL|TOKEN/.test(c))).toEqual([]);
    expect(await emailsBeforeMarker(user.emailAddress)).toEqual([]);

    // the consumer sends the one e-mail, once, even when each record is delivered twice
    expect(await deliverOutbox(stream, 2)).toBe(2);
    expect(await emailsBeforeMarker(user.emailAddress, /Reset your Campus Books password/)).toHaveLength(1);
    expect(await emailsBeforeMarker(unknownAddress)).toEqual([]);
  });

  it('sends at most 3 reset e-mails an hour per address, still answering 202', async () => {
    const { user } = await createConfirmedUser();
    for (let i = 0; i < 5; i++) expect((await requestReset(user.emailAddress)).status).toBe(202);
    expect(await emailsBeforeMarker(user.emailAddress)).toHaveLength(3);
  });
});

describe('POST /api/auth/passwordReset', () => {
  it('sets the new password; older tokens stop working at once and the old password fails', async () => {
    const { user, token: oldJwt, password } = await createConfirmedUser();
    await requestReset(user.emailAddress);
    const token = emailTokenIn(await waitForEmail(user.emailAddress, /Reset/));
    expect((await me(oldJwt)).status).toBe(200);

    const res = await reset(token);
    expect(res.status).toBe(200);
    expectEnvelope(res.json(), Message);

    expect((await me(oldJwt)).status).toBe(401);
    expectError((await me(oldJwt)).json(), 'TOKEN_INVALID');
    expect((await logIn(user.emailAddress, password)).status).toBe(401);
    expect((await logIn(user.emailAddress, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses a replayed, altered or expired token, and a confirmation token, with 400', async () => {
    const { user } = await createConfirmedUser();
    const used = await createResetToken(user.id);
    expect((await reset(used)).status).toBe(200);
    expectError((await reset(used, 'another new password')).json(), 'EMAIL_TOKEN_INVALID');

    const fresh = await createResetToken(user.id);
    const altered = `${fresh.slice(0, -1)}${fresh.endsWith('A') ? 'B' : 'A'}`;
    expectError((await reset(altered)).json(), 'EMAIL_TOKEN_INVALID');

    const expired = await createResetToken(user.id, new Date(Date.now() - 3600 * 1000 - 1000));
    expectError((await reset(expired)).json(), 'EMAIL_TOKEN_INVALID');

    const signup = makeSignup();
    const confirmation = await createPendingSignup(signup);
    expectError((await reset(confirmation)).json(), 'EMAIL_TOKEN_INVALID');
    expect((await confirmSignup(confirmation, signup.password)).emailAddress).toBeTruthy();
    await expect(confirmSignup(fresh, signup.password)).rejects.toBeInstanceOf(InvalidEmailToken);

    expect((await reset(fresh)).status).toBe(200);
  });

  it('revokes every other outstanding reset token once one of them resets the password', async () => {
    const { user } = await createConfirmedUser();
    const first = await createResetToken(user.id);
    const second = await createResetToken(user.id);
    expect((await reset(first)).status).toBe(200);
    const res = await reset(second, 'the attacker’s own password');
    expect(res.status).toBe(400);
    expectError(res.json(), 'EMAIL_TOKEN_INVALID');
    expect((await logIn(user.emailAddress, NEW_PASSWORD)).status).toBe(200);
    expect((await logIn(user.emailAddress, 'the attacker’s own password')).status).toBe(401);
  });

  it('revokes outstanding reset tokens when the password is changed while logged in', async () => {
    const { user, token, password } = await createConfirmedUser();
    const outstanding = await createResetToken(user.id);
    expect((await change(token, { password, newPassword: NEW_PASSWORD })).status).toBe(200);
    const res = await reset(outstanding, 'the attacker’s own password');
    expect(res.status).toBe(400);
    expectError(res.json(), 'EMAIL_TOKEN_INVALID');
    expect((await logIn(user.emailAddress, NEW_PASSWORD)).status).toBe(200);
  });

  it('lets exactly one of two concurrent uses of one token succeed', async () => {
    const { user } = await createConfirmedUser();
    const token = await createResetToken(user.id);
    const results = await Promise.all([
      reset(token, 'first new password'),
      reset(token, 'second new password'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = results[0]?.status === 200 ? 'first new password' : 'second new password';
    expect((await logIn(user.emailAddress, winner)).status).toBe(200);
  });

  it('holds the new password to 8..72 bytes', async () => {
    const { user } = await createConfirmedUser();
    const token = await createResetToken(user.id);
    expect((await reset(token, 'short')).status).toBe(400);
    expect((await reset(token, 'é'.repeat(37))).status).toBe(400);
    expect((await reset(token)).status).toBe(200);
  });
});

describe('POST /api/auth/updatePassword', () => {
  it('changes the password and answers a new token; the old token stops working', async () => {
    const { user, token, password } = await createConfirmedUser();
    const res = await change(token, { password, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(200);
    const { token: newJwt } = expectEnvelope(res.json(), NewToken);
    expect((await me(token)).status).toBe(401);
    expect((await me(newJwt)).status).toBe(200);
    expect((await logIn(user.emailAddress, password)).status).toBe(401);
    expect((await logIn(user.emailAddress, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses a wrong current password with 403 and changes nothing', async () => {
    const { user, token, password } = await createConfirmedUser();
    const res = await change(token, { password: 'not my password', newPassword: NEW_PASSWORD });
    expect(res.status).toBe(403);
    expectError(res.json(), 'WRONG_PASSWORD');
    expect((await me(token)).status).toBe(200);
    expect((await logIn(user.emailAddress, password)).status).toBe(200);
  });

  it('counts wrong current passwords towards the address’s login throttle', async () => {
    const { token, password } = await createConfirmedUser();
    for (let i = 0; i < 10; i++) {
      expect((await change(token, { password: `guess-${i}-pw`, newPassword: NEW_PASSWORD })).status).toBe(
        403,
      );
    }
    const blocked = await change(token, { password, newPassword: NEW_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toBeTruthy();
  });

  it('compares only 10 of 30 concurrent wrong current passwords; the other 20 get 429', async () => {
    const { token, password } = await createConfirmedUser();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        change(token, { password: `guess-${i}-pw`, newPassword: NEW_PASSWORD }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 403)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    expect((await change(token, { password, newPassword: NEW_PASSWORD })).status).toBe(429);
    expect((await me(token)).status).toBe(200);
  });

  it('needs a token, and a new password of 8..72 bytes', async () => {
    const { token, password } = await createConfirmedUser();
    const anonymous = await invoke(updatePassword, {
      method: 'POST',
      route: '/api/auth/updatePassword',
      body: { password, newPassword: NEW_PASSWORD },
    });
    expect(anonymous.status).toBe(401);
    expect((await change(token, { password, newPassword: 'short' })).status).toBe(400);
    expect((await change(token, { password, newPassword: 'x'.repeat(73) })).status).toBe(400);
    expect((await change(token, { password, newPassword: NEW_PASSWORD, tokenVersion: 0 })).status).toBe(400);
  });
});
