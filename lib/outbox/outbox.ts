/**
 * Sending what the outbox owes (lib/db/outbox.ts): the outbox consumer's processor and the sweeper.
 * E-mail goes out on this path alone, apart from the main stream consumer, so SES trouble delays
 * e-mail and nothing else; a failed send waits (backing off) and is tried again by the sweeper for
 * up to MAX_AGE_MS, then kept as failed with an alarm (the `OutboxFailed` metric).
 *
 * Each kind of message has a renderer, given by the composition root (functions/streams/outbox.ts),
 * which turns the stored message into an e-mail when it is sent, or null when there is nothing to
 * send (e.g. the recipient turned those e-mails off, or an account e-mail's address has no account).
 */

import { isOutboxKey } from '#lib/db/keys.ts';
import { claim, listDue, markFailed, markRetry, markSent, type OutboxRecord, wake } from '#lib/db/outbox.ts';
import { storedPreferences } from '#lib/db/preferences.ts';
import type { UserRecord } from '#lib/db/records.ts';
import { getUser } from '#lib/db/users.ts';
import { logger } from '#lib/logger.ts';
import { type Mail, sendMail } from '#lib/mail/send.ts';
import { countEvent } from '#lib/metrics.ts';
import { unsubscribeUrl } from '#lib/preferences/unsubscribe.ts';
import type { ChangeProcessor } from '#lib/streams/types.ts';
import { withDefaults } from '#lib/values/preferences.ts';
import { at, LEASE_MS, MAX_AGE_MS, READY_GRACE_MS, retryDelayMs } from './policy.ts';

/** Writes a message's e-mail when it is sent, or null when there is nothing to send. */
export type OutboxRenderer = (message: OutboxRecord) => Promise<Mail | null>;
export type OutboxRenderers = Record<OutboxRecord['kind'], OutboxRenderer>;

/** A renderer for a message to a user (`recipientId`): nothing is sent once the user is gone. */
export function toRecipient(
  render: (message: OutboxRecord, recipient: UserRecord) => Mail | null,
): OutboxRenderer {
  return async (message) => {
    const recipient = message.recipientId ? await getUser(message.recipientId) : null;
    return recipient ? render(message, recipient) : null;
  };
}

export { LEASE_MS, MAX_AGE_MS, OPEN_GRACE_MS, READY_GRACE_MS, retryDelayMs } from './policy.ts';

/**
 * The renderer of kind 'mail': the written e-mail to the recipient's address, with the unsubscribe
 * link of its category; null when the recipient has turned that category off since it was queued.
 */
export function writtenMail(message: OutboxRecord, recipient: UserRecord): Mail | null {
  if (!message.mail) return null;
  const category = message.category;
  if (category) {
    const prefs = withDefaults(storedPreferences(recipient as unknown as Record<string, unknown>));
    const wanted = category === 'matches' ? prefs.matches !== 'off' : prefs[category];
    if (!wanted) return null;
  }
  return {
    to: recipient.emailAddress,
    ...message.mail,
    ...(category ? { unsubscribeUrl: unsubscribeUrl(recipient.id, category) } : {}),
  };
}

/**
 * The renderer of kind 'mail': to the address captured when it was queued (an account being deleted:
 * essential, so no preference or unsubscribe link applies), else as `writtenMail` to the recipient.
 */
export const mailRenderer: OutboxRenderer = async (message) =>
  message.address && message.mail
    ? { to: message.address, ...message.mail }
    : toRecipient(writtenMail)(message);

/** Sends one ready message, once: claimed first, then sent, then marked sent (or retry on failure). */
export async function deliver(
  message: OutboxRecord,
  renderers: OutboxRenderers,
  now: () => Date = () => new Date(),
): Promise<void> {
  const attempts = (message.attempts ?? 0) + 1;
  if (!(await claim(message.id, at(now(), LEASE_MS), attempts))) return;
  try {
    const mail = await renderers[message.kind](message);
    const outcome = mail ? await sendMail(mail) : 'skipped';
    await markSent(message.id, outcome, now());
  } catch (err) {
    const error = err as Error;
    logger.warn('outbox: send failed, will retry', { id: message.id, attempts, error });
    await markRetry(message.id, at(now(), retryDelayMs(attempts)), `${error.name}: ${error.message}`);
  }
}

/** The outbox consumer's processor: a message that became ready is sent. */
export function outboxProcessor(renderers: OutboxRenderers): ChangeProcessor {
  return {
    name: 'outbox',
    wants: (c) => isOutboxKey(c.keys) && c.newImage?.state === 'ready',
    apply: async (c) => deliver(c.newImage as OutboxRecord, renderers),
  };
}

export interface SweepResult {
  woken: number;
  failed: number;
}

/**
 * Wakes the messages whose time has come (a finished wait, an expired claim, an open message left
 * by a run that died, a ready one whose stream record was lost) and gives up on those older than
 * MAX_AGE_MS. Reads at most `limit` messages (one Query); what is left waits for the next run.
 */
export async function sweepOutbox(now: Date, limit = 200): Promise<SweepResult> {
  const due = await listDue(now.toISOString(), limit);
  const result: SweepResult = { woken: 0, failed: 0 };
  for (const m of due) {
    if (now.getTime() - new Date(m.createdAt).getTime() > MAX_AGE_MS) {
      if (await markFailed(m.id, m.state, m.due, now.toISOString())) {
        result.failed++;
        countEvent('OutboxFailed');
        logger.error('outbox: gave up on a message', { id: m.id, kind: m.kind, attempts: m.attempts });
      }
    } else if (await wake(m.id, m.state, m.due, at(now, READY_GRACE_MS))) result.woken++;
  }
  return result;
}
