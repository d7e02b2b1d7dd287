/**
 * End-to-end account helper: signs up, confirms and logs in over HTTP the way a client does,
 * reading the confirmation e-mail from the SES emulator.
 *
 *   const { token, user } = await signUpConfirmAndLogin();
 */
import { expect } from 'vitest';
import { LoginResult, type SignupInput, type User } from '#lib/accounts/schemas.ts';
import { confirmationLinkIn, emailTokenIn, makeSignup } from './accounts.ts';
import { api, waitForEmail } from './e2e.ts';
import { expectEnvelope } from './schema.ts';

export const CONFIRMATION_SUBJECT = /Confirm your Campus Books account/;

/** The path (and query) of an e-mailed link, to call on the test server. */
export const pathOf = (link: string): string => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

/**
 * POST /signup, then the e-mailed token confirmed with the sign-up password (POST /confirm, as the
 * link's page or the web app does); returns the sign-up body, the link and the confirm answer.
 */
export async function signUpAndConfirm(overrides: Partial<SignupInput> = {}) {
  const body = makeSignup(overrides);
  const signup = await api('POST', '/api/auth/signup', { body });
  expect(signup.status).toBe(202);
  const mail = await waitForEmail(body.emailAddress, CONFIRMATION_SUBJECT);
  const link = confirmationLinkIn(mail);
  const confirmed = await api('POST', '/api/auth/confirm', {
    body: { token: emailTokenIn(mail), password: body.password },
  });
  expect(confirmed.status).toBe(200);
  return { body, mail, link, confirmed };
}

export interface E2eAccount {
  token: string;
  user: User;
  emailAddress: string;
  password: string;
}

/** A new confirmed account, logged in over HTTP. */
export async function signUpConfirmAndLogin(overrides: Partial<SignupInput> = {}): Promise<E2eAccount> {
  const { body } = await signUpAndConfirm(overrides);
  const res = await api('POST', '/api/auth/login', {
    body: { emailAddress: body.emailAddress, password: body.password },
  });
  expect(res.status).toBe(200);
  const data = expectEnvelope(res.body, LoginResult);
  return { token: data.token, user: data.user, emailAddress: body.emailAddress, password: body.password };
}
