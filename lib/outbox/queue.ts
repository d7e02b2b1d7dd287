/**
 * Queueing e-mails in the outbox (lib/db/outbox.ts) from the code that decides to send them; the
 * outbox consumer (lib/outbox/outbox.ts) sends them. Kept apart so a writer bundles no SES client.
 */
import { type AccountMailRequest, type OutboxMail, putReady, readyPutOp } from '#lib/db/outbox.ts';
import type { TransactItem } from '#lib/table/transact.ts';
import type { EmailCategory } from '#lib/values/preferences.ts';
import { at, READY_GRACE_MS } from './policy.ts';

/**
 * Queues a written e-mail for a user (kind 'mail'), ready to send. `id` must be deterministic for
 * what the e-mail is about (e.g. its notification), so queueing it again changes nothing.
 */
export async function queueMail(
  message: { id: string; recipientId: string; mail: OutboxMail; category?: EmailCategory },
  now: Date,
): Promise<void> {
  await putReady({ kind: 'mail', ...message }, now.toISOString(), at(now, READY_GRACE_MS));
}

/**
 * An essential e-mail to a user (no `category`: sent whatever the preferences) as a transaction
 * item, written in the same transaction as the change it tells about, so the change never commits
 * without it. `address` sends to that address, captured now, instead of the user's at send time:
 * the last e-mail of an account being deleted.
 */
export const mailOp = (
  message: { id: string; recipientId: string; mail: OutboxMail; address?: string },
  now: Date,
): TransactItem => readyPutOp({ kind: 'mail', ...message }, now.toISOString(), at(now, READY_GRACE_MS));

/**
 * Queues an account e-mail (kind 'account'), ready to send; the sender looks the address up and
 * issues the link's token when it sends (lib/accounts/mail-processor.ts). `id` is the request's own.
 */
export async function queueAccountMail(id: string, request: AccountMailRequest, now: Date): Promise<void> {
  await putReady({ id, kind: 'account', account: request }, now.toISOString(), at(now, READY_GRACE_MS));
}
