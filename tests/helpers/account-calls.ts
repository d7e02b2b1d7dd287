/** The account calls several integration tests make through the handlers: log in, read oneself, delete oneself. */
import { handler as deleteAccountHandler } from '#functions/auth/delete-account.ts';
import { handler as loginHandler } from '#functions/auth/login.ts';
import { handler as getUserDataHandler } from '#functions/user/get-user-data.ts';
import { invoke } from '#tests/helpers/lambda.ts';

/** POST /api/auth/login. */
export const login = (emailAddress: string, password: string) =>
  invoke(loginHandler, { method: 'POST', route: '/api/auth/login', body: { emailAddress, password } });

/** GET /api/user/getUserData with `token`. */
export const me = (token: string) => invoke(getUserDataHandler, { route: '/api/user/getUserData', token });

/** POST /api/auth/deleteAccount with `token` and the account's `password`. */
export const deleteAccountCall = (token: string, password: string) =>
  invoke(deleteAccountHandler, {
    method: 'POST',
    route: '/api/auth/deleteAccount',
    token,
    body: { password },
  });

/** A JSON answer without its `time`, so two answers compare equal when they say the same. */
export const withoutTime = (body: string) => {
  const { time: _t, ...rest } = JSON.parse(body) as Record<string, unknown>;
  return rest;
};
