/**
 * What a student is told by e-mail when something happens to their account: the password changed,
 * the account deleted, the admin role taken away, the account suspended or reinstated. Each is a
 * notice (lib/mail/notice.ts) queued in the e-mail outbox by the code that made the change, and each
 * is essential: no preference turns it off, and it carries no unsubscribe link (docs/trust.md). None
 * ever contains a password or a token. Pure, given the configuration.
 */
import type { OutboxMail } from '#lib/db/outbox.ts';
import { appLinks, appPaths, contactAddress } from './links.ts';
import { noticeMail } from './notice.ts';

/** A moment as the e-mails show it: "2026-11-28 at 17:48 UTC". */
export const mailTime = (at: Date): string => {
  const iso = at.toISOString();
  return `${iso.slice(0, 10)} at ${iso.slice(11, 16)} UTC`;
};

/** What the mails say about where to write. */
const writeTo = (): string => `write to ${contactAddress()}`;

/** The password was changed (updatePassword) or set anew with a reset link (passwordReset). */
export function passwordChangedMail(firstName: string, at: Date): OutboxMail {
  return noticeMail({
    subject: 'Your Campus Books password was changed',
    message: `The password of your Campus Books account was changed on ${mailTime(at)}. Everywhere else you were signed in has been signed out.`,
    details: [
      'If this was you, there is nothing more to do.',
      'If it was not you, someone else knows your password or can read your e-mail: ask for a password reset link now and choose a new password, one you use nowhere else.',
    ],
    linkLabel: 'Choose a new password',
    link: appLinks.page(appPaths.forgotPassword()),
  })(firstName);
}

/**
 * The last e-mail of a deleted account, to the address it had. What it says is gone and what stays
 * follows lib/privacy/deletion.ts.
 */
export function accountDeletedMail(firstName: string, at: Date): OutboxMail {
  return noticeMail({
    subject: 'Your Campus Books account was deleted',
    message: `Your Campus Books account was deleted on ${mailTime(at)}, as asked with its password. This is the last e-mail you get from us about it.`,
    details: [
      'Deleted: your profile and e-mail preferences, the books you had listed or unlisted (and the reports about them), your book requests, saved books, cart, matches and notifications.',
      'Kept: books you sold stay with their buyers and your conversations stay with the other side, both showing you as "deleted user"; orders stay as the record of each purchase.',
      'This address is free again: you can sign up with it as a new account at any time.',
      `If you did not delete your account, someone knew your password: ${writeTo()}.`,
    ],
    linkLabel: 'Write to Campus Books',
    link: appLinks.contact(),
  })(firstName);
}

/** The owner made an admin a student again (revokeAdmin). */
export function adminRevokedMail(firstName: string): OutboxMail {
  return noticeMail({
    subject: 'You are no longer an admin of Campus Books',
    message: 'An owner of Campus Books has made you a student again: the dashboard no longer opens for you.',
    details: [
      'Everything else of your account stays as it was: your books, orders, conversations and settings. Two-factor sign-in stays on if you turned it on; you can turn it off under Settings.',
    ],
    linkLabel: 'Open your settings',
    link: appLinks.page(appPaths.settings()),
  })(firstName);
}

/** An admin suspended the account (suspendUser, the first call only). */
export function suspendedMail(firstName: string): OutboxMail {
  return noticeMail({
    subject: 'Your Campus Books account was suspended',
    message:
      'Your Campus Books account was suspended by a moderator: you cannot sign in, and everywhere you were signed in has been signed out.',
    details: [
      'The books you had listed are no longer listed, so nobody can buy them. Your orders, requests, cart and conversations are kept.',
      `If you think this is a mistake, or want to know more, ${writeTo()}.`,
    ],
    linkLabel: 'Write to Campus Books',
    link: appLinks.contact(),
  })(firstName);
}

/** An admin lifted the suspension (reinstateUser). */
export function reinstatedMail(firstName: string): OutboxMail {
  return noticeMail({
    subject: 'Your Campus Books account was reinstated',
    message: 'Your Campus Books account is no longer suspended: you can sign in again.',
    details: [
      'The books unlisted while it was suspended stay unlisted: relist the ones you still want to sell under your listings.',
    ],
    linkLabel: 'Sign in',
    link: appLinks.login(),
  })(firstName);
}
