import { describe, expect, it } from 'vitest';
import { handler as confirm } from '#functions/auth/confirm.ts';
import { handler as signup } from '#functions/auth/signup.ts';
import { accountMail } from '#lib/accounts/mail-processor.ts';
import { hashEmailToken, newEmailToken } from '#lib/accounts/rules.ts';
import { Message } from '#lib/accounts/schemas.ts';
import { config } from '#lib/config.ts';
import { emailKey, pendingSignupsPk, tokenKey } from '#lib/db/keys.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { login } from '#tests/helpers/account-calls.ts';
import {
  createConfirmedUser,
  emailsBeforeMarker,
  emailTokenIn,
  makeSignup,
  sendQueuedMail,
} from '#tests/helpers/accounts.ts';
import { sentEmails, waitForEmail } from '#tests/helpers/e2e.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { queryPartition } from '#tests/helpers/query.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';

const route = '/api/auth/signup';
const post = (body: unknown) => invoke(signup, { method: 'POST', route, body });
const mailsTo = async (address: string) =>
  (await sentEmails()).filter((m) => m.destination.to.includes(address));
/** The envelope without its timestamp: what two answers must share to be "the same". */
const comparable = (body: string) => {
  const { time: _time, ...rest } = JSON.parse(body) as Record<string, unknown>;
  return rest;
};

describe('POST /api/auth/signup', () => {
  it('answers 202 and e-mails a confirmation link to the service’s own confirm route', async () => {
    const body = makeSignup({ firstName: 'Ada' });
    const res = await post(body);
    expect(res.status).toBe(202);
    expectEnvelope(res.json(), Message);
    // the request path sends nothing itself: the e-mail is queued in the outbox
    expect(await mailsTo(body.emailAddress)).toEqual([]);
    expect(await sendQueuedMail()).toBe(1);
    const mail = await waitForEmail(body.emailAddress, /Confirm your Campus Books account/);
    expect(mail.from).toBe(config.MAIL_FROM);
    const token = emailTokenIn(mail);
    expect(mail.body.text).toContain(`${config.PUBLIC_URL}/api/auth/confirm/${token}`);
    expect(mail.body.html).toContain(`/api/auth/confirm/${token}`);
    expect(mail.body.html).toContain('Ada');
  });

  it('writes the e-mail when it is sent: a retried send e-mails a fresh link and the first stops working', async () => {
    const body = makeSignup();
    await post(body);
    await sendQueuedMail();
    const first = emailTokenIn(await waitForEmail(body.emailAddress, /Confirm/));
    // the same outbox message sent again (as after a failed send): its token hash is gone by now
    const again = await accountMail({
      type: 'outbox',
      id: 'retry',
      kind: 'account',
      account: { action: 'confirm-signup', address: body.emailAddress, tokenHash: newEmailToken().hash },
      state: 'sending',
      createdAt: new Date().toISOString(),
      due: new Date().toISOString(),
      attempts: 2,
    });
    expect(again?.to).toBe(body.emailAddress);
    const fresh = emailTokenIn({
      from: config.MAIL_FROM,
      destination: { to: [body.emailAddress] },
      subject: again?.subject ?? '',
      body: { text: again?.text },
      at: Date.now(),
    });
    expect(fresh).not.toBe(first);
    const postConfirm = (token: string) =>
      invoke(confirm, {
        method: 'POST',
        route: '/api/auth/confirm',
        body: { token, password: body.password },
      });
    expect((await postConfirm(first)).status).toBe(400);
    expect((await postConfirm(fresh)).status).toBe(200);
    const claimed = await db.send(new GetCommand({ TableName: TABLE, Key: emailKey(body.emailAddress) }));
    expect(claimed.Item).toBeDefined();
  });

  it('stores only a pending sign-up keyed by the token hash, with a 24-hour expiry and TTL', async () => {
    const body = makeSignup();
    const before = Date.now();
    await post(body);
    await sendQueuedMail();
    const token = emailTokenIn(await waitForEmail(body.emailAddress, /Confirm/));
    const item = (await db.send(new GetCommand({ TableName: TABLE, Key: tokenKey(hashEmailToken(token)) })))
      .Item;
    expect(item).toMatchObject({ kind: 'confirm', signup: { emailNormalised: body.emailAddress } });
    const expires = Date.parse(String(item?.expiresAt));
    expect(expires - before).toBeGreaterThanOrEqual(24 * 3600 * 1000 - 1000);
    expect(expires - before).toBeLessThan(24 * 3600 * 1000 + 60_000);
    expect(item?.ttl).toBe(Math.ceil(expires / 1000));
    const stored = JSON.stringify(item);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(body.password);
    expect((item?.signup as { passwordHash?: string } | undefined)?.passwordHash).toMatch(
      /^\$argon2id\$v=19\$m=256,t=1,p=1\$/,
    );
    // no account yet: the address is not claimed and login fails
    const claimed = await db.send(new GetCommand({ TableName: TABLE, Key: emailKey(body.emailAddress) }));
    expect(claimed.Item).toBeUndefined();
    const res = await login(body.emailAddress, body.password);
    expect(res.status).toBe(401);
  });

  it('answers an existing address exactly as a new one and e-mails its owner instead', async () => {
    const { user } = await createConfirmedUser({ firstName: 'Owner' });
    const fresh = await post(makeSignup());
    const taken = await post(makeSignup({ emailAddress: user.emailAddress.toUpperCase() }));
    expect(taken.status).toBe(fresh.status);
    expect(comparable(taken.body)).toEqual(comparable(fresh.body));
    await sendQueuedMail();
    const mail = await waitForEmail(user.emailAddress, /already have a Campus Books account/);
    expect(mail.body.text).toContain('Owner');
    expect(mail.body.text).not.toMatch(/\/api\/auth\/confirm\//);
    expect(await queryPartition(pendingSignupsPk(user.emailAddress), { index: 'gsi1' })).toEqual([]);
  });

  it('answers a plus-address of an existing account as any existing address and creates nothing: one mailbox, one account', async () => {
    const { user } = await createConfirmedUser({ firstName: 'Owner' });
    const [local, domain] = user.emailAddress.split('@');
    const plus = `${local}+second@${domain}`;
    const fresh = await post(makeSignup());
    const taken = await post(makeSignup({ emailAddress: plus }));
    expect(taken.status).toBe(202);
    expect(comparable(taken.body)).toEqual(comparable(fresh.body));
    await sendQueuedMail();
    // the owner of the mailbox is told, at the account's own address; no link, no sign-up stored
    const mail = await waitForEmail(user.emailAddress, /already have a Campus Books account/);
    expect(mail.body.text).not.toMatch(/\/api\/auth\/confirm\//);
    expect(await queryPartition(pendingSignupsPk(plus), { index: 'gsi1' })).toEqual([]);
    expect((await mailsTo(plus)).length).toBe(0);
    // the uniqueness item is the mailbox's: both spellings reach the one account
    const item = await db.send(
      new GetCommand({ TableName: TABLE, Key: emailKey(plus), ConsistentRead: true }),
    );
    expect(item.Item?.userId).toBe(user.id);
  });

  it('confirms only the first of two pending sign-ups of one mailbox (a+1@ and a+2@)', async () => {
    const base = makeSignup().emailAddress;
    const [local, domain] = base.split('@');
    const first = await createConfirmedUser({ emailAddress: `${local}+1@${domain}` });
    await expect(createConfirmedUser({ emailAddress: `${local}+2@${domain}` })).rejects.toThrow();
    const item = await db.send(
      new GetCommand({ TableName: TABLE, Key: emailKey(base), ConsistentRead: true }),
    );
    expect(item.Item?.userId).toBe(first.user.id);
  });

  it.each(['a@x.edu.evil.com', 'a@evil.com', 'a@edu', 'a@.edu', 'not-an-address'])(
    'refuses the address %s with 400',
    async (emailAddress) => {
      const res = await post(makeSignup({ emailAddress }));
      expect(res.status).toBe(400);
      expect(expectError(res.json(), 'VALIDATION_FAILED').details?.map((d) => d.field)).toEqual([
        'emailAddress',
      ]);
    },
  );

  it.each([
    ['7 bytes', 'a'.repeat(7)],
    ['73 bytes', 'a'.repeat(73)],
    ['74 bytes in 37 characters', 'é'.repeat(37)],
  ])('refuses a password of %s with 400', async (_what, password) => {
    const res = await post(makeSignup({ password }));
    expect(res.status).toBe(400);
    expect(expectError(res.json(), 'VALIDATION_FAILED').details?.map((d) => d.field)).toEqual(['password']);
  });

  it('accepts a password of exactly 72 UTF-8 bytes', async () => {
    expect((await post(makeSignup({ password: 'é'.repeat(36) }))).status).toBe(202);
  });

  it.each(['status', 'owner', 'buyer', 'date', 'permissionType', 'id'])(
    'refuses a body carrying %s with 400 and stores nothing',
    async (field) => {
      const body = { ...makeSignup(), [field]: 2 };
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(expectError(res.json(), 'VALIDATION_FAILED').details?.map((d) => d.field)).toEqual([field]);
      await sendQueuedMail();
      expect(await mailsTo(body.emailAddress)).toEqual([]);
    },
  );

  it('sends at most 3 confirmation e-mails an hour to one address, answering 202 every time', async () => {
    const body = makeSignup();
    for (let i = 0; i < 5; i++) expect((await post(body)).status).toBe(202);
    await sendQueuedMail();
    expect(await emailsBeforeMarker(body.emailAddress)).toHaveLength(3);
  });
});
