/**
 * The account e-mails: confirmation, "you already have an account", password reset. Each has a
 * plain-text and an HTML part; everything user-provided is escaped in the HTML.
 */
import { appLinks } from '#lib/mail/links.ts';
import { escapeHtml, type Mail } from '#lib/mail/send.ts';

/** The confirmation link: the service's own GET /api/auth/confirm/{token}. */
export const confirmationLink = appLinks.confirmation;

/**
 * The reset link: the front end's page when APP_URL is set, else the service's URL; either way the
 * token is in the query and also printed, for clients that call POST /api/auth/passwordReset.
 */
export const resetLink = appLinks.resetPassword;

const loginUrl = appLinks.login;

function html(title: string, paragraphs: string[]): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${paragraphs
    .map((p) => `<p>${p}</p>`)
    .join('')}</body></html>`;
}

export function confirmationMail(to: string, firstName: string, token: string): Mail {
  const link = confirmationLink(token);
  return {
    to,
    subject: 'Confirm your Campus Books account',
    text: `Hi ${firstName},\n\nconfirm your Campus Books account by opening this link within 24 hours:\n\n${link}\n\nIf you did not sign up, ignore this e-mail.\n`,
    html: html('Confirm your Campus Books account', [
      `Hi ${escapeHtml(firstName)},`,
      `confirm your Campus Books account by opening this link within 24 hours:`,
      `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`,
      'If you did not sign up, ignore this e-mail.',
    ]),
  };
}

export function existingAccountMail(to: string, firstName: string): Mail {
  const url = loginUrl();
  return {
    to,
    subject: 'You already have a Campus Books account',
    text: `Hi ${firstName},\n\nsomeone (perhaps you) tried to sign up with this address, but it already has an account. Log in at ${url}, or ask for a password reset if you forgot your password.\n\nIf this was not you, you can ignore this e-mail: nothing changed.\n`,
    html: html('You already have a Campus Books account', [
      `Hi ${escapeHtml(firstName)},`,
      `someone (perhaps you) tried to sign up with this address, but it already has an account. Log in at <a href="${escapeHtml(url)}">${escapeHtml(url)}</a>, or ask for a password reset if you forgot your password.`,
      'If this was not you, you can ignore this e-mail: nothing changed.',
    ]),
  };
}

/** The unlock link: the web app's login page with the token (docs/security.md, device cookies). */
export const unlockLink = appLinks.unlock;

export function unlockMail(to: string, firstName: string, token: string): Mail {
  const link = unlockLink(token);
  const lines = [
    'too many wrong passwords were tried for your Campus Books account, so logins from browsers you have not signed in with before are paused for 15 minutes. Browsers you signed in with before still get in with your password.',
    'To sign in from a new browser now, open this link within one hour and enter your password (and code, if you use two-factor sign-in):',
  ];
  return {
    to,
    subject: 'Your Campus Books account was locked for new browsers',
    text: `Hi ${firstName},\n\n${lines[0]}\n\n${lines[1]}\n\n${link}\n\nUnlock code: ${token}\n\nIf the wrong passwords were not yours, someone may be guessing: keep your password long and unique.\n`,
    html: html('Your Campus Books account was locked for new browsers', [
      `Hi ${escapeHtml(firstName)},`,
      escapeHtml(lines[0] as string),
      escapeHtml(lines[1] as string),
      `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`,
      `Unlock code: <code>${escapeHtml(token)}</code>`,
      'If the wrong passwords were not yours, someone may be guessing: keep your password long and unique.',
    ]),
  };
}

export function resetMail(to: string, firstName: string, token: string): Mail {
  const link = resetLink(token);
  return {
    to,
    subject: 'Reset your Campus Books password',
    text: `Hi ${firstName},\n\nchoose a new password within one hour by opening this link:\n\n${link}\n\nReset code: ${token}\n\nThe link works once. If you did not ask for this, ignore this e-mail: your password stays as it is.\n`,
    html: html('Reset your Campus Books password', [
      `Hi ${escapeHtml(firstName)},`,
      'choose a new password within one hour by opening this link:',
      `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`,
      `Reset code: <code>${escapeHtml(token)}</code>`,
      'The link works once. If you did not ask for this, ignore this e-mail: your password stays as it is.',
    ]),
  };
}
