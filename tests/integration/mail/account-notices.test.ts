/**
 * The e-mails a student gets when something happens to their account (lib/mail/account-notices.ts):
 * password changed (updatePassword, passwordReset), account deleted, admin role revoked, suspended
 * and reinstated. Each goes through the outbox (sent here as its consumer would, every record twice)
 * and is read back from the SES emulator's inbox: one e-mail, to the account's address, with the
 * exact link, the words that matter, no unsubscribe link, and nothing else sent or changed.
 */
import { describe, expect, it } from 'vitest';
import { handler as passwordReset } from '#functions/auth/password-reset.ts';
import { handler as updatePassword } from '#functions/auth/update-password.ts';
import { handler as getAuditLog } from '#functions/dashboard/get-audit-log.ts';
import { handler as reinstateHandler } from '#functions/dashboard/reinstate-user.ts';
import { handler as revokeAdminHandler } from '#functions/dashboard/revoke-admin.ts';
import { handler as suspendHandler } from '#functions/dashboard/suspend-user.ts';
import { createResetToken } from '#lib/accounts/password.ts';
import { config } from '#lib/config.ts';
import { AuditLog } from '#lib/dashboard/schemas.ts';
import { outboxKey, userKey } from '#lib/db/keys.ts';
import { deleteAccountCall, login } from '#tests/helpers/account-calls.ts';
import {
  createConfirmedUser,
  emailsBeforeMarker,
  sendQueuedMail,
  type TestAccount,
  uniqueEmail,
} from '#tests/helpers/accounts.ts';
import { makeBook, readBook } from '#tests/helpers/books.ts';
import { readItem } from '#tests/helpers/cart.ts';
import type { SesMessage } from '#tests/helpers/e2e.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectEnvelope, expectRefusal } from '#tests/helpers/schema.ts';

const NEW_PASSWORD = 'a brand new passphrase';
/** The web app's origin as the service links to it (APP_URL, else PUBLIC_URL). */
const app = () => (config.APP_URL || config.PUBLIC_URL).replace(/\/+$/, '');
/** MAIL_FROM's address, the one the e-mails say to write to. */
const CONTACT = 'no-reply@campusbooks.local';

const put = (route: string, token: string, body: unknown, handler: typeof suspendHandler) =>
  invoke(handler, { method: 'PUT', route, token, body });
const suspend = (token: string, userId: string) =>
  put('/api/dashboard/suspendUser', token, { userId, reason: 'Selling stolen books.' }, suspendHandler);
const reinstate = (token: string, userId: string) =>
  put('/api/dashboard/reinstateUser', token, { userId }, reinstateHandler);

/** Sends what the outbox owes (each record delivered twice), then every e-mail to `to` so far (but markers). */
async function mailsTo(to: string): Promise<SesMessage[]> {
  await sendQueuedMail(2);
  return (await emailsBeforeMarker(to)).filter((m) => !m.subject.startsWith('Test marker '));
}

/** The one e-mail in `mails`: its recipient, subject, greeting, link (in both parts) and no unsubscribe. */
function expectNotice(
  mails: SesMessage[],
  o: { to: string; subject: string; firstName: string; linkLabel: string; link: string },
): { text: string; html: string } {
  expect(mails.map((m) => m.subject)).toEqual([o.subject]);
  const [mail] = mails as [SesMessage];
  expect(mail.destination.to).toEqual([o.to]);
  const text = mail.body.text ?? '';
  const html = mail.body.html ?? '';
  expect(text.startsWith(`Hello ${o.firstName},\n`)).toBe(true);
  expect(text).toContain(`\n${o.linkLabel}: ${o.link}\n`);
  expect(html).toContain(`<a href="${o.link}">${o.linkLabel}</a>`);
  expect(text).not.toMatch(/unsubscribe/i);
  return { text, html };
}

/**
 * The one "password changed" e-mail to the account: the exact link, the time of the change (between
 * `before` and now, to the minute), neither the old nor the new password. Returns its text.
 */
async function expectPasswordNotice(
  account: TestAccount,
  firstName: string,
  before: number,
): Promise<string> {
  const { text, html } = expectNotice(await mailsTo(account.record.emailAddress), {
    to: account.record.emailAddress,
    subject: 'Your Campus Books password was changed',
    firstName,
    linkLabel: 'Choose a new password',
    link: `${app()}/forgot-password`,
  });
  const when = /was changed on (\d{4}-\d\d-\d\d) at (\d\d:\d\d) UTC\./.exec(text);
  expect(when).not.toBeNull();
  const at = Date.parse(`${when?.[1]}T${when?.[2]}:00Z`);
  expect(at).toBeGreaterThanOrEqual(Math.floor(before / 60_000) * 60_000);
  expect(at).toBeLessThanOrEqual(Date.now());
  for (const part of [text, html]) {
    expect(part).not.toContain(NEW_PASSWORD);
    expect(part).not.toContain(account.password);
  }
  return text;
}

describe('password changed', () => {
  it('updatePassword e-mails the owner when and what to do if it was not them, never the password', async () => {
    const account = await createConfirmedUser({ firstName: 'Priya' });
    const before = Date.now();
    const res = await invoke(updatePassword, {
      method: 'POST',
      route: '/api/auth/updatePassword',
      token: account.token,
      body: { password: account.password, newPassword: NEW_PASSWORD },
    });
    expect(res.status).toBe(200);

    const text = await expectPasswordNotice(account, 'Priya', before);
    expect(text).toContain('If it was not you, someone else knows your password');
    // the change itself is as before: the new password signs in, the old one does not
    expect((await login(account.record.emailAddress, NEW_PASSWORD)).status).toBe(200);
    expect((await login(account.record.emailAddress, account.password)).status).toBe(401);
  });

  it('passwordReset with the e-mailed token sends the same notice, once', async () => {
    const account = await createConfirmedUser({ firstName: 'Tomas' });
    const token = await createResetToken(account.record.id);
    const before = Date.now();
    const res = await invoke(passwordReset, {
      method: 'POST',
      route: '/api/auth/passwordReset',
      body: { token, password: NEW_PASSWORD },
    });
    expect(res.status).toBe(200);

    const text = await expectPasswordNotice(account, 'Tomas', before);
    expect(text).toContain('Everywhere else you were signed in has been signed out.');
    expect((await login(account.record.emailAddress, NEW_PASSWORD)).status).toBe(200);
  });
});

describe('account deleted', () => {
  it('sends a last e-mail to the address the account had, saying what is gone and what stays (none on a wrong password)', async () => {
    // a sub-address: the e-mail goes to the address as typed, not the mailbox it normalises to
    const address = uniqueEmail('lena').replace('@', '+books@');
    const account = await createConfirmedUser({ firstName: 'Lena', emailAddress: address });
    expect(account.record.emailAddress).toBe(address);
    // a wrong password deletes nothing and sends nothing
    expect((await deleteAccountCall(account.token, 'not the password at all')).status).toBe(403);
    expect(await mailsTo(address)).toEqual([]);

    const res = await deleteAccountCall(account.token, account.password);
    expect(res.status).toBe(200);
    expect(await readItem(userKey(account.record.id))).toBeUndefined();

    const { text } = expectNotice(await mailsTo(address), {
      to: address,
      subject: 'Your Campus Books account was deleted',
      firstName: 'Lena',
      linkLabel: 'Write to Campus Books',
      link: `mailto:${CONTACT}`,
    });
    expect(text).toContain(
      'Deleted: your profile and e-mail preferences, the books you had listed or unlisted (and the reports about them), your book requests, saved books, cart, matches and notifications.',
    );
    expect(text).toContain('books you sold stay with their buyers');
    expect(text).toContain(
      `If you did not delete your account, someone knew your password: write to ${CONTACT}.`,
    );
    expect(text).not.toContain(account.password);
    // once sent, the outbox forgets the address
    const sent = await readItem(outboxKey(`account.deleted.${account.record.id}`));
    expect(sent).toMatchObject({ state: 'sent', outcome: 'sent' });
    expect(sent?.address).toBeUndefined();
  });
});

describe('admin role revoked', () => {
  it('revokeAdmin tells the former admin, as makeAdmin tells a new one', async () => {
    const owner = await createConfirmedUser({ permissionType: 2 });
    const admin = await createConfirmedUser({ permissionType: 1, firstName: 'Kofi' });
    const res = await put(
      '/api/dashboard/revokeAdmin',
      owner.token,
      { userId: admin.record.id },
      revokeAdminHandler,
    );
    expect(res.status).toBe(200);
    expect((await readItem(userKey(admin.record.id)))?.permissionType).toBe(0);

    const { text } = expectNotice(await mailsTo(admin.record.emailAddress), {
      to: admin.record.emailAddress,
      subject: 'You are no longer an admin of Campus Books',
      firstName: 'Kofi',
      linkLabel: 'Open your settings',
      link: `${app()}/settings`,
    });
    expect(text).toContain('the dashboard no longer opens for you');
    expect(await mailsTo(owner.record.emailAddress)).toEqual([]);
  });
});

describe('suspended and reinstated', () => {
  it('suspendUser e-mails once (not when refused, not again when called again), reinstateUser says they can sign in', async () => {
    const admin = await createConfirmedUser({ permissionType: 1 });
    const target = await createConfirmedUser({ firstName: 'Ines' });
    const book = await makeBook({ id: target.record.id });
    const to = target.record.emailAddress;
    // refused (an admin cannot suspend an admin): nothing sent
    const otherAdmin = await createConfirmedUser({ permissionType: 1 });
    expect((await suspend(otherAdmin.token, admin.record.id)).status).toBe(403);
    expect(await mailsTo(admin.record.emailAddress)).toEqual([]);

    expect((await suspend(admin.token, target.record.id)).status).toBe(200);
    expect((await readBook(book.id))?.status).toBe(5);
    const { text } = expectNotice(await mailsTo(to), {
      to,
      subject: 'Your Campus Books account was suspended',
      firstName: 'Ines',
      linkLabel: 'Write to Campus Books',
      link: `mailto:${CONTACT}`,
    });
    expect(text).toContain('you cannot sign in');
    expect(text).toContain('The books you had listed are no longer listed');
    expect(text).toContain(`If you think this is a mistake, or want to know more, write to ${CONTACT}.`);
    expect(text).not.toContain('Selling stolen books.'); // the moderator's reason stays in the audit log

    // calling again (it finishes an unlisting) sends no second suspension e-mail
    expect((await suspend(admin.token, target.record.id)).status).toBe(200);
    expect((await mailsTo(to)).map((m) => m.subject)).toEqual(['Your Campus Books account was suspended']);
    // login still answers as for a wrong password
    expect((await login(to, target.password)).status).toBe(401);

    expect((await reinstate(admin.token, target.record.id)).status).toBe(200);
    const mails = await mailsTo(to);
    expect(mails.map((m) => m.subject)).toEqual([
      'Your Campus Books account was suspended',
      'Your Campus Books account was reinstated',
    ]);
    const reinstated = expectNotice(mails.slice(1), {
      to,
      subject: 'Your Campus Books account was reinstated',
      firstName: 'Ines',
      linkLabel: 'Sign in',
      link: config.APP_URL ? `${app()}/login` : app(),
    });
    expect(reinstated.text).toContain('you can sign in again');
    expect((await readBook(book.id))?.status).toBe(5); // reinstating relists nothing
    expect(await mailsTo(admin.record.emailAddress)).toEqual([]);
  });

  it('of suspensions at once one suspends, audits and e-mails, the rest answer as a repeat; of reinstatements at once one reinstates, the rest are 409', async () => {
    const admin = await createConfirmedUser({ permissionType: 1 });
    const target = await createConfirmedUser({ firstName: 'Otto' });
    const to = target.record.emailAddress;
    const versionBefore = Number((await readItem(userKey(target.record.id)))?.tokenVersion ?? 0);
    const actions = async () => {
      const log = await invoke(getAuditLog, {
        route: '/api/dashboard/getAuditLog',
        token: admin.token,
        query: { actor: admin.record.id },
      });
      expect(log.status).toBe(200);
      return expectEnvelope(log.json(), AuditLog).map((e) => e.action);
    };
    const times = <T>(call: () => Promise<T>) => Promise.all(Array.from({ length: 4 }, call));

    const suspended = await times(() => suspend(admin.token, target.record.id));
    expect(suspended.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const stored = await readItem(userKey(target.record.id));
    expect(stored?.suspended).toBe(true);
    expect(stored?.tokenVersion).toBe(versionBefore + 1);
    expect(await actions()).toEqual(['suspendUser']);
    expect((await mailsTo(to)).map((m) => m.subject)).toEqual(['Your Campus Books account was suspended']);

    const reinstated = await times(() => reinstate(admin.token, target.record.id));
    const ok = reinstated.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of reinstated.filter((r) => r.status !== 200)) expectRefusal(r, 409, 'NOT_SUSPENDED');
    expect((await readItem(userKey(target.record.id)))?.suspended).toBeUndefined();
    expect(await actions()).toEqual(['reinstateUser', 'suspendUser']);
    expect((await mailsTo(to)).map((m) => m.subject)).toEqual([
      'Your Campus Books account was suspended',
      'Your Campus Books account was reinstated',
    ]);
  });
});
