/**
 * Delivering one notification: in-app once, and by e-mail once.
 *
 * The notification's id is a hash of the user and what caused it (`cause`: a match, or one stream
 * record), so a redelivered stream record computes the same id and the conditional put writes it
 * once. The e-mail state lives on the notification and moves pending -> sending -> sent:
 *  - a redelivery that finds `sent` (or `none`) sends nothing;
 *  - the consumer claims the e-mail (pending -> sending, conditional) before calling SES, so two
 *    deliveries racing for the same notification send once;
 *  - when SES throws, the claim goes back to `pending` and the error fails the stream record: the
 *    stream retries it, the notification (the state change) is already stored and is not lost;
 *  - a claim older than EMAIL_CLAIM_LEASE_MS was left by a consumer that died between the claim and
 *    the `sent` mark; it is taken over and the e-mail is sent again. This is the one window where a
 *    message can go out twice (SES accepted it, the process died before writing `sent`): we prefer
 *    a rare duplicate to a lost e-mail. A fresh claim fails the record so the stream retries later.
 */
import { createHash } from 'node:crypto';
import { putDigestEntry } from '#lib/db/digests.ts';
import {
  moveEmailState,
  type NotificationKind,
  type NotificationRecord,
  putNotificationOnce,
} from '#lib/db/notifications.ts';
import { getUserContact } from '#lib/db/users.ts';
import { logger } from '#lib/logger.ts';
import { type Mail, sendMail } from '#lib/mail/send.ts';
import { type BusinessEvent, countEvent } from '#lib/metrics.ts';
import { type EmailCategory, withDefaults } from '#lib/preferences/schemas.ts';
import { unsubscribeUrl } from '#lib/preferences/unsubscribe.ts';

/** Longer than the consumer's timeout (60 s), so a live consumer's claim is never taken over. */
export const EMAIL_CLAIM_LEASE_MS = 90_000;

export interface NotificationInput {
  userId: string;
  /** what caused the notification; the same cause gives the same notification */
  cause: string;
  kind: NotificationKind;
  message: string;
  bookId?: string;
  /** the e-mail, given the recipient's first name */
  email: (firstName: string) => Omit<Mail, 'to'>;
  /** which preference (and unsubscribe link) the e-mail falls under; every notification e-mail is non-essential */
  category: EmailCategory;
  /**
   * Asked once the preferences want an e-mail (each or daily): false leaves this notification
   * without one (a relisted book within 7 days of an earlier match e-mail).
   */
  emailGate?: () => Promise<boolean>;
  /**
   * The business event this notification stands for (a match), counted when the notification is
   * first stored: once per cause, however often the stream delivers the record that caused it.
   */
  event?: BusinessEvent;
}

export class EmailInFlight extends Error {
  override name = 'EmailInFlight';
}

export const notificationId = (userId: string, cause: string): string =>
  createHash('sha256').update(`${userId}\u0000${cause}`).digest('base64url').slice(0, 26);

export async function notify(
  input: NotificationInput,
  now: () => Date = () => new Date(),
): Promise<NotificationRecord> {
  const contact = await getUserContact(input.userId);
  const emailState = contact ? await initialEmailState(input, withDefaults(contact.preferences)) : 'none';
  const record: NotificationRecord = {
    type: 'notification',
    id: notificationId(input.userId, input.cause),
    userId: input.userId,
    kind: input.kind,
    message: input.message,
    ...(input.bookId ? { bookId: input.bookId } : {}),
    date: now().toISOString(),
    read: false,
    emailState,
  };
  const { created, stored } = await putNotificationOnce(record);
  if (created && input.event) countEvent(input.event);
  if (!contact) return stored;
  if (stored.emailState === 'digest') {
    // queued for the daily digest (again on a redelivery: the same key)
    await putDigestEntry(
      {
        day: stored.date.slice(0, 10),
        userId: input.userId,
        bookId: input.bookId ?? '',
        notificationId: stored.id,
        at: stored.date,
      },
      now(),
    );
    return stored;
  }

  let claimFrom: { state: 'pending' | 'sending'; claimedAt?: string };
  if (stored.emailState === 'pending') {
    claimFrom = { state: 'pending' };
  } else if (stored.emailState === 'sending') {
    const age = now().getTime() - Date.parse(stored.emailClaimedAt ?? '');
    if (!(age > EMAIL_CLAIM_LEASE_MS))
      throw new EmailInFlight(`e-mail of notification ${stored.id} is being sent`);
    claimFrom = { state: 'sending', claimedAt: stored.emailClaimedAt ?? '' };
  } else {
    return stored; // sent or none: nothing to do
  }

  const claimedAt = now().toISOString();
  if (!(await moveEmailState(input.userId, stored.id, claimFrom, { state: 'sending', at: claimedAt }))) {
    throw new EmailInFlight(`e-mail of notification ${stored.id} was claimed by another delivery`);
  }
  try {
    await sendMail({
      to: contact.emailAddress,
      ...input.email(contact.firstName),
      unsubscribeUrl: unsubscribeUrl(input.userId, input.category),
    });
  } catch (err) {
    logger.warn('e-mail failed; the stream will retry it', {
      notificationId: stored.id,
      error: err as Error,
    });
    await moveEmailState(
      input.userId,
      stored.id,
      { state: 'sending', claimedAt },
      { state: 'pending', at: now().toISOString() },
    );
    throw err;
  }
  await moveEmailState(
    input.userId,
    stored.id,
    { state: 'sending', claimedAt },
    { state: 'sent', at: now().toISOString() },
  );
  return { ...stored, emailState: 'sent' };
}

/** What the preferences (and the gate) say about this notification's e-mail. */
async function initialEmailState(
  input: NotificationInput,
  prefs: ReturnType<typeof withDefaults>,
): Promise<NotificationRecord['emailState']> {
  const mode =
    input.category === 'matches' ? prefs.matches : prefs[input.category] ? 'each' : ('off' as const);
  if (mode === 'off') return 'none';
  if (mode === 'daily' && !input.bookId) return 'none';
  if (input.emailGate && !(await input.emailGate())) return 'none';
  return mode === 'daily' ? 'digest' : 'pending';
}
