/**
 * A new message -> the other side is told: an in-app notification of kind `message` opening the
 * conversation, and an e-mail (the `messages` preference, one-click unsubscribe like the others)
 * at most once per conversation per 15 minutes while they have not read it. Run by the stream
 * consumer on each message written, so sending stays one transaction; the notification's cause
 * is the message id, so a redelivered record changes nothing twice.
 */
import {
  claimMessageMail,
  getConversation,
  getInboxEntry,
  type MessageRecord,
} from '#lib/db/conversations.ts';
import { isMessageKey } from '#lib/db/keys.ts';
import { appLinks } from '#lib/mail/links.ts';
import { noticeMail } from '#lib/mail/notice.ts';
import { notify } from '#lib/notifications/notify.ts';
import type { ChangeProcessor, StreamChange } from '#lib/streams/types.ts';

/** At most one e-mail per conversation in this long, unless the recipient read it since. */
export const MESSAGE_MAIL_INTERVAL_MS = 15 * 60 * 1000;

/** The web app's page of a conversation (APP_URL; the service's own URL when there is no front end). */
export const conversationUrl = appLinks.conversation;

/**
 * The words of the notification and its e-mail, naming the book a message asks about (askSeller),
 * so a seller with several listings knows which one before opening it. Pure. The message's text
 * is not in the e-mail.
 */
export function messageContent(senderFirstName: string, conversationId: string, bookName?: string) {
  const who = senderFirstName || 'Someone';
  const message = bookName ? `${who} sent you a message about “${bookName}”.` : `${who} sent you a message.`;
  return {
    message,
    email: noticeMail({
      subject: `New message from ${who}`,
      message,
      linkLabel: 'Read and reply',
      link: conversationUrl(conversationId),
    }),
  };
}

async function apply(change: StreamChange, now: () => Date = () => new Date()): Promise<void> {
  const m = change.newImage as MessageRecord | undefined;
  // a hand-over step is told by its own notification (lib/handover/service.ts), not as a message
  if (!m || m.handover) return;
  const conversation = await getConversation(m.conversationId);
  const recipientId = conversation?.participants.find((p) => p !== m.senderId);
  if (!conversation || !recipientId) return;
  const content = messageContent(conversation.names[m.senderId] ?? '', m.conversationId, m.bookName);
  await notify(
    {
      userId: recipientId,
      cause: `message#${m.conversationId}#${m.id}`,
      kind: 'message',
      conversationId: m.conversationId,
      ...(m.bookId ? { bookId: m.bookId } : {}),
      message: content.message,
      email: content.email,
      category: 'messages',
      emailGate: async () => {
        const at = now();
        const entry = await getInboxEntry(recipientId, m.conversationId);
        const notBefore = new Date(at.getTime() - MESSAGE_MAIL_INTERVAL_MS).toISOString();
        return claimMessageMail(recipientId, m.conversationId, at.toISOString(), notBefore, entry?.readAt);
      },
    },
    now,
  );
}

export const messageNotificationsProcessor: ChangeProcessor = {
  name: 'message-notifications',
  wants: (c) => c.eventName === 'INSERT' && isMessageKey(c.keys),
  apply: (c) => apply(c),
};
