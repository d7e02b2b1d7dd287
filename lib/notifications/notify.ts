/**
 * Delivering one notification: in-app once, and by e-mail once.
 *
 * The notification's id is a hash of the user and what caused it (`cause`: a match, or one stream
 * record), so a redelivered stream record computes the same id and the conditional put writes it
 * once. Its e-mail is not sent here: it is written and queued in the e-mail outbox
 * (lib/outbox/outbox.ts) under an id made from the notification's, so queueing it again changes
 * nothing, and the outbox consumer sends it. SES trouble therefore never fails the stream record
 * that made the notification: matches, notifications and the search index go on, and the outbox
 * retries the e-mail for up to 3 days. The notification's e-mail state moves pending -> queued once
 * the outbox holds the e-mail (a redelivery that finds `pending` queues again, harmlessly).
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
import { appLinks } from '#lib/mail/links.ts';
import type { Mail } from '#lib/mail/send.ts';
import { type BusinessEvent, countEvent } from '#lib/metrics.ts';
import { notificationPath } from '#lib/notifications/links.ts';
import { queueMail } from '#lib/outbox/queue.ts';
import { type EmailCategory, withDefaults } from '#lib/values/preferences.ts';

export interface NotificationInput {
  userId: string;
  /** what caused the notification; the same cause gives the same notification */
  cause: string;
  kind: NotificationKind;
  message: string;
  bookId?: string;
  /** the conversation a `message` notification opens */
  conversationId?: string;
  /** the order a `handover` notification opens */
  orderId?: string;
  /**
   * the e-mail, given the recipient's first name and the page the notification opens (its link,
   * lib/notifications/links.ts, after the web app's origin)
   */
  email: (firstName: string, link: string) => Omit<Mail, 'to'>;
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
    ...(input.conversationId ? { conversationId: input.conversationId } : {}),
    ...(input.orderId ? { orderId: input.orderId } : {}),
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

  if (stored.emailState !== 'pending') return stored; // queued, sent (before the outbox) or none
  await queueMail(
    {
      id: `notif.${stored.id}`,
      recipientId: input.userId,
      mail: input.email(contact.firstName, appLinks.page(notificationPath(stored))),
      category: input.category,
    },
    now(),
  );
  await moveEmailState(
    input.userId,
    stored.id,
    { state: 'pending' },
    { state: 'queued', at: now().toISOString() },
  );
  return { ...stored, emailState: 'queued' };
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
