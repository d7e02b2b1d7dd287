/**
 * A new message tells the other side: an in-app notification of kind `message` that opens the
 * conversation, and an e-mail through the outbox at most once per conversation per 15 minutes
 * while they have not read it, under the `messages` preference.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { conversationUrl, MESSAGE_MAIL_INTERVAL_MS } from '#lib/conversations/mail.ts';
import { conversationMailKey, notificationKey, outboxKey } from '#lib/db/keys.ts';
import { setPreferences } from '#lib/db/preferences.ts';
import { notificationId } from '#lib/notifications/notify.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { putBook } from '#tests/helpers/books.ts';
import { asked, markConversationRead, sendMessage } from '#tests/helpers/conversations.ts';
import { sentEmails } from '#tests/helpers/e2e.ts';
import { getNotifications } from '#tests/helpers/matching.ts';
import { setStored } from '#tests/helpers/stored.ts';
import { consumeNew, deliverOutbox, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser } from '#tests/helpers/users.ts';

let reader: StreamReader;
beforeEach(async () => {
  reader = new StreamReader();
  await reader.skipToEnd();
});

const stored = async (key: { pk: string; sk: string }) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item;

/** The notification the recipient got for one message. */
const notificationOf = (recipientId: string, conversationId: string, messageId: string) =>
  stored(notificationKey(recipientId, notificationId(recipientId, `message#${conversationId}#${messageId}`)));

/** Sends a message and answers it (201 expected). */
async function sent(token: string, conversationId: string, text: string) {
  const res = await sendMessage(token, { conversationId, text });
  expect(res.status).toBe(201);
  return res.json<{ data: { message: { id: string } } }>().data.message;
}

async function pair() {
  const seller = await makeUser({ firstName: 'Sam' });
  const buyer = await makeUser({ firstName: 'Bea' });
  const book = await putBook({ ownerId: seller.id, ownerFirstName: 'Sam' });
  return { seller, buyer, book };
}

describe('a new message', () => {
  it('notifies the other side in-app (kind message, with the conversation) and e-mails them a link to it', async () => {
    const { seller, buyer, book } = await pair();
    const { conversationId, message } = await asked(buyer.token, book.id, 'Is it still available?');
    // delivered twice (at-least-once): one notification, one e-mail
    expect(await consumeNew(reader, 'CONV#', 2)).toBeGreaterThan(0);
    const notification = await notificationOf(seller.id, conversationId, message.id);
    expect(notification).toMatchObject({
      kind: 'message',
      conversationId,
      bookId: book.id,
      message: `Bea sent you a message about “${book.name}”.`,
      emailState: 'queued',
    });
    const listed = await getNotifications(seller.token);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.json())).toContain(`"conversationId":"${conversationId}"`);
    expect(await stored(outboxKey(`notif.${String(notification?.id)}`))).toBeDefined();
    expect(await deliverOutbox(reader)).toBe(1);
    const mails = (await sentEmails()).filter((m) => m.destination.to.includes(seller.record.emailAddress));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('New message from Bea');
    expect(mails[0]?.body.text).toContain(conversationUrl(conversationId));
    // it names the book asked about, so a seller of several knows which one
    expect(mails[0]?.body.text).toContain(`Bea sent you a message about “${book.name}”.`);
    // the message's text is not in the e-mail
    expect(mails[0]?.body.text).not.toContain('Is it still available?');
    // nobody tells the sender about their own message
    expect(await notificationOf(buyer.id, conversationId, message.id)).toBeUndefined();
  });

  it('e-mails at most once per conversation per 15 minutes while unread, and again once read', async () => {
    const { seller, buyer, book } = await pair();
    const first = await asked(buyer.token, book.id, 'one');
    await consumeNew(reader, 'CONV#');
    const second = await sent(buyer.token, first.conversationId, 'two');
    await consumeNew(reader, 'CONV#');
    expect(await notificationOf(seller.id, first.conversationId, second.id)).toMatchObject({
      emailState: 'none',
    });

    // read since the last e-mail: the next message mails again
    expect((await markConversationRead(seller.token, first.conversationId)).status).toBe(200);
    const third = await sent(buyer.token, first.conversationId, 'three');
    await consumeNew(reader, 'CONV#');
    expect(await notificationOf(seller.id, first.conversationId, third.id)).toMatchObject({
      emailState: 'queued',
    });

    // unread, but the last e-mail is older than 15 minutes: mails again
    const longAgo = new Date(Date.now() - MESSAGE_MAIL_INTERVAL_MS - 1000).toISOString();
    await setStored(conversationMailKey(seller.id, first.conversationId), { at: longAgo });
    const fourth = await sent(buyer.token, first.conversationId, 'four');
    await consumeNew(reader, 'CONV#');
    expect(await notificationOf(seller.id, first.conversationId, fourth.id)).toMatchObject({
      emailState: 'queued',
    });
  });

  it('sends no e-mail when the recipient turned the messages e-mails off, and still notifies in-app', async () => {
    const { seller, buyer, book } = await pair();
    await setPreferences(seller.id, { messages: false });
    const { conversationId, message } = await asked(buyer.token, book.id, 'hello');
    await consumeNew(reader, 'CONV#');
    expect(await notificationOf(seller.id, conversationId, message.id)).toMatchObject({
      kind: 'message',
      emailState: 'none',
    });
    expect(await stored(conversationMailKey(seller.id, conversationId))).toBeUndefined();
  });
});
