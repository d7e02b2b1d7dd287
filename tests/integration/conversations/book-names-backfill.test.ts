/**
 * The migration to messages that name their book (scripts/backfill-message-book-names.ts): an
 * askSeller message of the old shape (its book's id, no title) in, the title read back in the
 * thread; a second run changes nothing; a message whose book is gone is counted and left as is.
 */
import { describe, expect, it } from 'vitest';
import { Thread } from '#lib/conversations/schemas.ts';
import { bookKey, messageKey } from '#lib/db/keys.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { DeleteCommand, GetCommand, UpdateCommand } from '#lib/table/commands.ts';
import { backfillMessageBookNames } from '#scripts/migrations/message-book-names.ts';
import { putBook } from '#tests/helpers/books.ts';
import { asked, getConversation, sendMessage } from '#tests/helpers/conversations.ts';
import { expectEnvelope } from '#tests/helpers/schema.ts';
import { makeUser } from '#tests/helpers/users.ts';

/** The message as an earlier release wrote it: without its book's title. */
const toOldShape = (conversationId: string, messageId: string) =>
  db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: messageKey(conversationId, messageId),
      UpdateExpression: 'REMOVE bookName',
    }),
  );

const storedMessage = async (conversationId: string, messageId: string) =>
  (
    await db.send(
      new GetCommand({ TableName: TABLE, Key: messageKey(conversationId, messageId), ConsistentRead: true }),
    )
  ).Item;

describe('backfilling the titles of askSeller messages', () => {
  it('gives an old message its book’s title, once; leaves one whose book is gone', async () => {
    const seller = await makeUser({ firstName: 'Sam' });
    const buyer = await makeUser({ firstName: 'Bea' });
    const book = await putBook({ ownerId: seller.id, ownerFirstName: 'Sam' });
    const gone = await putBook({ ownerId: seller.id, ownerFirstName: 'Sam' });
    const first = await asked(buyer.token, book.id, 'Is it still available?');
    const second = await asked(buyer.token, gone.id, 'And this one?');
    const reply = await sendMessage(seller.token, { conversationId: first.conversationId, text: 'Yes.' });
    expect(reply.status).toBe(201);
    await toOldShape(first.conversationId, first.message.id);
    await toOldShape(second.conversationId, second.message.id);
    await db.send(new DeleteCommand({ TableName: TABLE, Key: bookKey(gone.id) }));
    expect(await storedMessage(first.conversationId, first.message.id)).not.toHaveProperty('bookName');

    const progress: number[] = [];
    const run = await backfillMessageBookNames(1000, (d) => progress.push(d.titled));
    expect(run.titled).toBeGreaterThanOrEqual(1);
    expect(run.bookGone).toBeGreaterThanOrEqual(1);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(await storedMessage(first.conversationId, first.message.id)).toMatchObject({
      bookId: book.id,
      bookName: book.name,
    });
    expect(await storedMessage(second.conversationId, second.message.id)).not.toHaveProperty('bookName');

    // the thread names the book again; the reply names none
    const res = await getConversation(buyer.token, first.conversationId);
    expect(res.status).toBe(200);
    const thread = expectEnvelope(res.json(), Thread);
    expect(thread.messages.map((m) => [m.text, m.bookName])).toEqual([
      ['Is it still available?', book.name],
      ['And this one?', undefined],
      ['Yes.', undefined],
    ]);

    // a second run finds nothing left to title
    const again = await backfillMessageBookNames();
    expect(again.titled).toBe(0);
    expect(await storedMessage(first.conversationId, first.message.id)).toMatchObject({
      bookName: book.name,
    });
  });
});
