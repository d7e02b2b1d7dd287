/**
 * Sending what the outbox owes (lib/db/outbox.ts): the outbox consumer's processor and the sweeper.
 * E-mail goes out on this path alone, apart from the main stream consumer, so SES trouble delays
 * e-mail and nothing else; a failed send waits (backing off) and is tried again by the sweeper for
 * up to MAX_AGE_MS, then kept as failed with an alarm (the `OutboxFailed` metric).
 *
 * Each kind of message has a renderer, given by the composition root (functions/streams/outbox.ts),
 * which turns the stored message and its recipient into an e-mail, or null when there is nothing to
 * send (e.g. the recipient turned those e-mails off).
 */

import { isOutboxKey } from '#lib/db/keys.ts';
import { claim, listDue, markFailed, markRetry, markSent, type OutboxRecord, wake } from '#lib/db/outbox.ts';
import type { UserRecord } from '#lib/db/records.ts';
import { getUser } from '#lib/db/users.ts';
import { logger } from '#lib/logger.ts';
import { type Mail, sendMail } from '#lib/mail/send.ts';
import { countEvent } from '#lib/metrics.ts';
import type { ChangeProcessor } from '#lib/streams/types.ts';

export type OutboxRenderer = (message: OutboxRecord, recipient: UserRecord) => Mail | null;
export type OutboxRenderers = Record<OutboxRecord['kind'], OutboxRenderer>;

const MINUTE = 60_000;
/** How long a claim holds: a consumer that died while sending is woken after this. */
export const LEASE_MS = 5 * MINUTE;
/** How long a ready message may wait for its stream record before the sweeper wakes it again. */
export const READY_GRACE_MS = 10 * MINUTE;
/** How long an open message may stay open: longer than any run that writes one (Lambda's 15 minutes). */
export const OPEN_GRACE_MS = 20 * MINUTE;
/** How long the outbox keeps trying (stream records themselves expire after 24 hours). */
export const MAX_AGE_MS = 3 * 24 * 60 * MINUTE;

/** The wait before attempt `attempts + 1`: 5 minutes, doubling, at most 6 hours. Pure. */
export const retryDelayMs = (attempts: number): number =>
  Math.min(5 * MINUTE * 2 ** Math.max(0, attempts - 1), 6 * 60 * MINUTE);

const at = (now: Date, plusMs: number): string => new Date(now.getTime() + plusMs).toISOString();

/** Sends one ready message, once: claimed first, then sent, then marked sent (or retry on failure). */
export async function deliver(
  message: OutboxRecord,
  renderers: OutboxRenderers,
  now: () => Date = () => new Date(),
): Promise<void> {
  const attempts = (message.attempts ?? 0) + 1;
  if (!(await claim(message.id, at(now(), LEASE_MS), attempts))) return;
  try {
    const recipient = await getUser(message.recipientId);
    const mail = recipient ? renderers[message.kind](message, recipient) : null;
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
