/**
 * The API shapes of accounts: request bodies and the `user` object. `User` never contains a
 * password hash, token hash or token version (it is a strict object built field by field).
 */

import type { UserRecord } from '#lib/db/records.ts';
import { campusOfUser } from '#lib/values/campus.ts';
import * as z from '#lib/zod.ts';
import {
  EMAIL_MAX_LENGTH,
  isAsciiAddress,
  isEduAddress,
  normaliseEmail,
  passwordProblem,
  utf8Length,
} from './rules.ts';

const NO_CONTROL_CHARS = /^[^\p{Cc}]*$/u;
const text = (max: number) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1),
      z.maxLength(max),
      z.regex(NO_CONTROL_CHARS, 'Control characters are not allowed.'),
    );

/** An e-mail address at a `.edu` domain; the output is trimmed (case kept for display). */
export const EmailAddress = z.string().check(
  z.trim(),
  z.maxLength(EMAIL_MAX_LENGTH),
  z.refine(isAsciiAddress, {
    message: 'Use an address written in plain ASCII characters (no accents or look-alike letters).',
    abort: true,
  }),
  z.refine((s) => isEduAddress(normaliseEmail(s)), 'Use your e-mail address at a .edu domain.'),
);

/** A new password: 8 to 72 UTF-8 bytes. */
export const NewPassword = z.string().check(
  z.superRefine((s, ctx) => {
    const problem = passwordProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

/** A password offered to be checked (login, current password): never longer than a password may be (rules.ts). */
export const OfferedPassword = z.string().check(
  z.minLength(1),
  z.refine((s) => utf8Length(s) <= 72, 'Use at most 72 bytes (UTF-8).'),
);

/** An e-mailed token as pasted by a client (checked against the store, so only bounded here). */
export const EmailToken = z.string().check(z.minLength(1), z.maxLength(256));

export const ProfileFields = {
  firstName: text(100),
  lastName: text(100),
  university: text(200),
  campusMailbox: text(100),
  paymentUsername: text(100),
};

export const SignupBody = z.strictObject({
  emailAddress: EmailAddress,
  password: NewPassword,
  ...ProfileFields,
});
export type SignupInput = z.output<typeof SignupBody>;

export const ConfirmBody = z.strictObject({ token: EmailToken, password: OfferedPassword });
/** The link's path parameter: any string; a bad one gets the "invalid link" page, not a JSON error. */
export const ConfirmParams = z.strictObject({ token: z.string() });
export const EmailBody = z.strictObject({ emailAddress: EmailAddress });
/** A second-factor code as typed: 6 digits, or a recovery code (`xxxxx-xxxxx`); checked in lib/accounts/totp.ts. */
export const SecondFactorCode = z.string().check(z.trim(), z.minLength(6), z.maxLength(32));
export const LoginBody = z.strictObject({
  emailAddress: EmailAddress,
  password: OfferedPassword,
  /** needed once the account has two-factor sign-in (401 MFA_REQUIRED without it) */
  code: z.optional(SecondFactorCode),
  /** an unlock link's token (the e-mail sent when unknown clients are locked out): lib/accounts/devices.ts */
  unlockToken: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
});
export type LoginInput = z.output<typeof LoginBody>;
export const PasswordResetBody = z.strictObject({ token: EmailToken, password: NewPassword });
export const UpdatePasswordBody = z.strictObject({ password: OfferedPassword, newPassword: NewPassword });

export const UpdateProfileBody = z
  .strictObject({
    firstName: z.optional(ProfileFields.firstName),
    lastName: z.optional(ProfileFields.lastName),
    university: z.optional(ProfileFields.university),
    campusMailbox: z.optional(ProfileFields.campusMailbox),
    paymentUsername: z.optional(ProfileFields.paymentUsername),
  })
  .check(
    z.refine((b) => Object.values(b).some((v) => v !== undefined), 'Send at least one field to change.'),
  );
export type ProfileUpdate = z.output<typeof UpdateProfileBody>;

/** The `user` object every area shows (never secrets). */
export const User = z.strictObject({
  id: z.string().check(z.minLength(1)),
  emailAddress: z.string().check(z.minLength(3)),
  firstName: z.string(),
  lastName: z.string(),
  university: z.string(),
  campus: z.string(),
  campusMailbox: z.string(),
  paymentUsername: z.string(),
  permissionType: z.number().check(z.int(), z.gte(0), z.lte(2)),
  createdAt: z.iso.datetime(),
});
export type User = z.output<typeof User>;

/** A stored user as the API shows it. */
export function toUser(r: UserRecord): User {
  return {
    id: r.id,
    emailAddress: r.emailAddress,
    firstName: r.firstName,
    lastName: r.lastName,
    university: r.university,
    campus: campusOfUser(r),
    campusMailbox: r.campusMailbox,
    paymentUsername: r.paymentUsername,
    permissionType: r.permissionType,
    createdAt: r.createdAt,
  };
}

/** `data` of 202 answers and of a password reset: a sentence for a person. */
export const Message = z.strictObject({ message: z.string().check(z.minLength(1)) });
export const LoginResult = z.strictObject({
  token: z.string().check(z.minLength(1)),
  expiresAt: z.iso.datetime(),
  user: User,
});
/** `data` of logout and logoutEverywhere. */
export const LoggedOut = z.strictObject({ loggedOut: z.literal(true) });
/** `data` of enrollTotp: the pending secret, once, as an otpauth:// URI (for a QR code) and as text. */
export const TotpEnrolment = z.strictObject({
  uri: z.string().check(z.startsWith('otpauth://totp/')),
  secret: z.string().check(z.regex(/^[A-Z2-7]+$/)),
});
/**
 * `data` of confirmTotp: the 10 single-use recovery codes, shown once, and a new token for this
 * session that counts as having passed the second factor (the code just confirmed is one).
 */
export const TotpRecoveryCodes = z.strictObject({
  recoveryCodes: z.array(z.string().check(z.regex(/^[a-z0-9]{5}-[a-z0-9]{5}$/))).check(z.length(10)),
  token: z.string().check(z.minLength(1)),
});
export const ConfirmTotpBody = z.strictObject({ code: SecondFactorCode });
export const DisableTotpBody = z.strictObject({ password: OfferedPassword, code: SecondFactorCode });
export const TotpDisabled = z.strictObject({ enabled: z.literal(false) });
/** `data` of updatePassword: the new token (older ones stop working). */
export const NewToken = z.strictObject({ token: z.string().check(z.minLength(1)) });
