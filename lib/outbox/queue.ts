/**
 * Queueing e-mails in the outbox (lib/db/outbox.ts) from the code that decides to send them; the
 * outbox consumer (lib/outbox/outbox.ts) sends them. Kept apart so a writer bundles no SES client.
 */
import { type OutboxMail, putReadyMail } from '#lib/db/outbox.ts';
import type { EmailCategory } from '#lib/preferences/schemas.ts';
import { at, READY_GRACE_MS } from './policy.ts';

/**
 * Queues a written e-mail for a user (kind 'mail'), ready to send. `id` must be deterministic for
 * what the e-mail is about (e.g. its notification), so queueing it again changes nothing.
 */
export async function queueMail(
  message: { id: string; recipientId: string; mail: OutboxMail; category?: EmailCategory },
  now: Date,
): Promise<void> {
  await putReadyMail(message, now.toISOString(), at(now, READY_GRACE_MS));
}
