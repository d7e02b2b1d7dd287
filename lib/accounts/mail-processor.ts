/**
 * Account e-mails through the outbox (lib/outbox): the renderer the outbox consumer uses for kind
 * 'account'.
 *
 * A request names an action and an address, never a token: the renderer issues the link's token
 * when it sends, so the table holds only token hashes (issue 20, item 14), and a retried send
 * (SES down) gets a fresh link. The public routes queue a request whatever the address, and the
 * look-up happens here, off the request path (item 29).
 */

import type { OutboxRecord } from '#lib/db/outbox.ts';
import type { Mail } from '#lib/mail/send.ts';
import { unlockMailFor } from './login.ts';
import { passwordResetMailFor } from './password.ts';
import { confirmationMailFor, existingAccountMailFor } from './signup.ts';

/** The outbox renderer of kind 'account'. */
export async function accountMail(message: OutboxRecord, now: Date = new Date()): Promise<Mail | null> {
  const request = message.account;
  if (!request) return null;
  switch (request.action) {
    case 'confirm-signup':
      return confirmationMailFor(request.address, now, request.tokenHash);
    case 'resend-confirmation':
      return confirmationMailFor(request.address, now);
    case 'password-reset':
      return passwordResetMailFor(request.address, now);
    case 'existing-account':
      return existingAccountMailFor(request.address);
    case 'login-unlock':
      return unlockMailFor(request.address, now);
  }
}
