import { describe, expect, it } from 'vitest';
import { LoginResult, Message, NewToken, User } from '#lib/accounts/schemas.ts';
import { confirmationLinkIn, emailTokenIn, makeSignup } from '#tests/helpers/accounts.ts';
import { api, apiUrl, waitForEmail } from '#tests/helpers/e2e.ts';
import { CONFIRMATION_SUBJECT, signUpConfirmAndLogin } from '#tests/helpers/e2e-accounts.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';

const comparable = (body: unknown) => {
  const { time: _time, ...rest } = body as Record<string, unknown>;
  return rest;
};

describe('accounts over HTTP', () => {
  it('signs up, follows the e-mailed link, logs in and reads getUserData', async () => {
    const body = makeSignup({ firstName: 'End', lastName: 'ToEnd' });
    const signup = await api('POST', '/api/auth/signup', { body });
    expect(signup.status).toBe(202);
    expectEnvelope(signup.body, Message);
    expect((signup.body as { method: string }).method).toBe('POST /api/auth/signup');

    // Not an account yet.
    const early = await api('POST', '/api/auth/login', {
      body: { emailAddress: body.emailAddress, password: body.password },
    });
    expect(early.status).toBe(401);

    const mail = await waitForEmail(body.emailAddress, CONFIRMATION_SUBJECT);
    expect(mail.body.text).toBeTruthy();
    expect(mail.body.html).toBeTruthy();
    const link = confirmationLinkIn(mail);
    expect(new URL(link).port).toBe(new URL(apiUrl()).port);

    // Following the link (a person, or a mail scanner) changes nothing: a page whose form confirms.
    const page = await fetch(link, { redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
    expect(action).toBe(`${apiUrl()}/api/auth/confirm`);
    const stillEarly = await api('POST', '/api/auth/login', {
      body: { emailAddress: body.emailAddress, password: body.password },
    });
    expect(stillEarly.status).toBe(401);

    // The page's form, as a browser posts it.
    const form = new URLSearchParams({ token: emailTokenIn(mail), password: body.password });
    const confirmed = await fetch(String(action), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await confirmed.text()).toContain('confirmed');

    // a reopened link confirms nothing again: it says the account is already confirmed, with a way to log in
    const replay = await fetch(link, { redirect: 'manual' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('content-type')).toMatch(/^text\/html/);
    const replayed = await replay.text();
    expect(replayed).toContain('Your account is already confirmed');
    expect(replayed).not.toContain('<form');

    const login = await api('POST', '/api/auth/login', {
      body: { emailAddress: body.emailAddress.toUpperCase(), password: body.password },
    });
    expect(login.status).toBe(200);
    const session = expectEnvelope(login.body, LoginResult);
    expect(login.text).not.toMatch(/passwordHash|tokenVersion|tokenHash|\$2[aby]\$|\$argon2id\$/);

    const me = await api('GET', '/api/user/getUserData', { token: session.token });
    expect(me.status).toBe(200);
    const user = expectEnvelope(me.body, User);
    expect(user).toEqual(session.user);
    expect(user).toMatchObject({
      emailAddress: body.emailAddress,
      firstName: 'End',
      lastName: 'ToEnd',
      university: body.university,
      campusMailbox: body.campusMailbox,
      paymentUsername: body.paymentUsername,
      permissionType: 0,
    });
  });

  it('confirms with POST /api/auth/confirm and the sign-up password only', async () => {
    const body = makeSignup();
    await api('POST', '/api/auth/signup', { body });
    const token = emailTokenIn(await waitForEmail(body.emailAddress, CONFIRMATION_SUBJECT));
    const wrong = await api('POST', '/api/auth/confirm', {
      body: { token, password: 'not the sign-up one' },
    });
    expect(wrong.status).toBe(400);
    expectError(wrong.body, 'WRONG_PASSWORD');
    const res = await api('POST', '/api/auth/confirm', { body: { token, password: body.password } });
    expect(res.status).toBe(200);
    expect(expectEnvelope(res.body, User).emailAddress).toBe(body.emailAddress);
    expectError(
      (await api('POST', '/api/auth/confirm', { body: { token, password: body.password } })).body,
      'EMAIL_TOKEN_INVALID',
    );
  });

  it('answers a sign-up for a taken address exactly like a new one', async () => {
    const account = await signUpConfirmAndLogin();
    const fresh = await api('POST', '/api/auth/signup', { body: makeSignup() });
    const taken = await api('POST', '/api/auth/signup', {
      body: makeSignup({ emailAddress: account.emailAddress.toUpperCase() }),
    });
    expect(taken.status).toBe(202);
    expect(comparable(taken.body)).toEqual(comparable(fresh.body));
    await waitForEmail(account.emailAddress, /already have a Campus Books account/);
  });

  it('resets a forgotten password from the e-mail; older tokens stop working', async () => {
    const account = await signUpConfirmAndLogin();
    const request = await api('POST', '/api/auth/passwordResetRequest', {
      body: { emailAddress: account.emailAddress },
    });
    expect(request.status).toBe(202);
    const token = emailTokenIn(await waitForEmail(account.emailAddress, /Reset your Campus Books password/));
    const reset = await api('POST', '/api/auth/passwordReset', {
      body: { token, password: 'my new long password' },
    });
    expect(reset.status).toBe(200);
    expect((await api('GET', '/api/user/getUserData', { token: account.token })).status).toBe(401);
    const login = await api('POST', '/api/auth/login', {
      body: { emailAddress: account.emailAddress, password: 'my new long password' },
    });
    expect(login.status).toBe(200);
  });

  it('changes the password and profile of a logged-in user', async () => {
    const account = await signUpConfirmAndLogin();
    const changed = await api('POST', '/api/auth/updatePassword', {
      token: account.token,
      body: { password: account.password, newPassword: 'changed password 123' },
    });
    expect(changed.status).toBe(200);
    const { token } = expectEnvelope(changed.body, NewToken);
    expect((await api('GET', '/api/user/getUserData', { token: account.token })).status).toBe(401);

    const profile = await api('POST', '/api/auth/updateProfile', {
      token,
      body: { campusMailbox: 'Box 9', permissionType: 2 },
    });
    expect(profile.status).toBe(400);
    const ok = await api('POST', '/api/auth/updateProfile', { token, body: { campusMailbox: 'Box 9' } });
    expect(ok.status).toBe(200);
    expect(expectEnvelope(ok.body, User)).toMatchObject({ campusMailbox: 'Box 9', permissionType: 0 });
  });
});
