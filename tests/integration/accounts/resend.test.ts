import { describe, expect, it } from 'vitest';
import { handler as confirm } from '#functions/auth/confirm.ts';
import { handler as resend } from '#functions/auth/resend-confirmation.ts';
import { handler as signup } from '#functions/auth/signup.ts';
import { Message } from '#lib/accounts/schemas.ts';
import { createPendingSignup, resendConfirmation, signup as startSignup } from '#lib/accounts/signup.ts';
import {
  createConfirmedUser,
  DEFAULT_PASSWORD,
  emailsBeforeMarker,
  emailTokenIn,
  makeSignup,
  uniqueEmail,
} from '#tests/helpers/accounts.ts';
import { waitForEmail } from '#tests/helpers/e2e.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { commandsOf, deliverOutbox, StreamReader } from '#tests/helpers/stream.ts';

const stream = new StreamReader();
const ask = (emailAddress: string) =>
  invoke(resend, { method: 'POST', route: '/api/auth/resendConfirmation', body: { emailAddress } });
/** The request, then the stream consumer's half (the look-up and the e-mail). */
const post = async (emailAddress: string) => {
  const res = await ask(emailAddress);
  await deliverOutbox(stream);
  return res;
};
const postConfirm = (token: string) =>
  invoke(confirm, {
    method: 'POST',
    route: '/api/auth/confirm',
    body: { token, password: DEFAULT_PASSWORD },
  });

describe('POST /api/auth/resendConfirmation', () => {
  it('e-mails a fresh link; the previous link stops working and the new one confirms', async () => {
    const body = makeSignup();
    await invoke(signup, { method: 'POST', route: '/api/auth/signup', body });
    await deliverOutbox(stream);
    const first = emailTokenIn(await waitForEmail(body.emailAddress, /Confirm/));

    const res = await post(body.emailAddress.toUpperCase());
    expect(res.status).toBe(202);
    expectEnvelope(res.json(), Message);
    const mails = await emailsBeforeMarker(body.emailAddress, /Confirm/);
    expect(mails).toHaveLength(2);
    const second = emailTokenIn(mails.at(-1) ?? expect.fail('no second e-mail'));
    expect(second).not.toBe(first);

    expectError((await postConfirm(first)).json(), 'EMAIL_TOKEN_INVALID');
    expect((await postConfirm(second)).status).toBe(200);
  });

  it('answers 202 and sends nothing for an address without a sign-up', async () => {
    const address = uniqueEmail();
    expect((await post(address)).status).toBe(202);
    expect(await emailsBeforeMarker(address)).toEqual([]);
  });

  it('answers 202 and sends nothing for a sign-up older than 24 hours', async () => {
    const body = makeSignup();
    await createPendingSignup(body, new Date(Date.now() - 25 * 3600 * 1000));
    expect((await post(body.emailAddress)).status).toBe(202);
    expect(await emailsBeforeMarker(body.emailAddress)).toEqual([]);
  });

  it('reminds an existing account’s owner instead of sending a link', async () => {
    const { user } = await createConfirmedUser();
    expect((await post(user.emailAddress)).status).toBe(202);
    const mail = await waitForEmail(user.emailAddress, /already have/);
    expect(mail.body.text).not.toMatch(/\/api\/auth\/confirm\//);
  });

  it('sends at most 3 confirmation e-mails an hour per address (sign-up included), always 202', async () => {
    const body = makeSignup();
    expect((await invoke(signup, { method: 'POST', route: '/api/auth/signup', body })).status).toBe(202);
    await deliverOutbox(stream);
    for (let i = 0; i < 4; i++) expect((await post(body.emailAddress)).status).toBe(202);
    expect(await emailsBeforeMarker(body.emailAddress, /Confirm/)).toHaveLength(3);
  });

  it('sends at most 3 when the burst straddles a clock hour too (a sliding window, not a fixed one)', async () => {
    const body = makeSignup();
    const hour = 3600 * 1000;
    const edge = Math.floor(Date.now() / hour) * hour;
    await startSignup(body, new Date(edge - 1000));
    for (let i = 0; i < 4; i++) await resendConfirmation(body.emailAddress, new Date(edge + 1000 + i));
    expect(await deliverOutbox(stream)).toBe(3);
    expect(await emailsBeforeMarker(body.emailAddress, /Confirm/)).toHaveLength(3);
  });

  it('does the same work for a pending sign-up, an existing account and an unknown address: the same DynamoDB commands, e-mail only from the consumer', async () => {
    const pending = makeSignup();
    await createPendingSignup(pending);
    const { user } = await createConfirmedUser();
    const unknownAddress = uniqueEmail();
    await stream.skipToEnd();
    const work = [];
    for (const address of [pending.emailAddress, user.emailAddress, unknownAddress])
      work.push(await commandsOf(() => ask(address)));
    expect(work[1]).toEqual(work[0]);
    expect(work[2]).toEqual(work[0]);
    expect(work[0]).toContain('PutItem OUTBOX');
    expect(work[0]?.filter((c) => /USER|EMAIL|TOKEN|PENDING/.test(c))).toEqual([]);
    expect(await emailsBeforeMarker(pending.emailAddress)).toEqual([]);
    expect(await emailsBeforeMarker(user.emailAddress)).toEqual([]);

    expect(await deliverOutbox(stream)).toBe(3);
    expect(await emailsBeforeMarker(pending.emailAddress, /Confirm/)).toHaveLength(1);
    expect(await emailsBeforeMarker(user.emailAddress, /already have/)).toHaveLength(1);
    expect(await emailsBeforeMarker(unknownAddress)).toEqual([]);
  });

  it('refuses a non-.edu address and unknown fields with 400', async () => {
    expect((await post('a@evil.com')).status).toBe(400);
    const res = await invoke(resend, {
      method: 'POST',
      route: '/api/auth/resendConfirmation',
      body: { emailAddress: uniqueEmail(), id: 'x' },
    });
    expect(res.status).toBe(400);
  });
});
