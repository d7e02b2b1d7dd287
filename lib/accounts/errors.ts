import { BadRequest, Unauthorized } from '#lib/errors.ts';

/** An e-mailed link or code that is unknown, altered, expired, already used, or for a taken address. */
export class InvalidEmailToken extends BadRequest {
  constructor() {
    super('This link is invalid, has expired or was already used.', undefined, 'EMAIL_TOKEN_INVALID');
  }
}

/** Login with an unknown address or a wrong password: one answer for both. */
export class InvalidCredentials extends Unauthorized {
  constructor() {
    super('The e-mail address or the password is wrong.', 'INVALID_CREDENTIALS');
  }
}

/** A confirmation with a password other than the one chosen at sign-up (the link stays usable). */
export class WrongSignupPassword extends BadRequest {
  constructor() {
    super(
      'This is not the password chosen at sign-up. Enter the password you signed up with.',
      [{ field: 'password', in: 'body', message: 'Not the password chosen at sign-up.' }],
      'WRONG_PASSWORD',
    );
  }
}
