import { ulid } from 'ulid';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { handler as messageReportsHandler } from '#functions/dashboard/get-message-reports.ts';
import { handler as reportMessageHandler } from '#functions/user/report-message.ts';
import { Book } from '#lib/books/schemas.ts';
import {
  AdminThread,
  ConversationSummary,
  MessageReport,
  ReportMessageAnswer,
  SentMessage,
  Thread,
} from '#lib/conversations/schemas.ts';
import { CONVERSATION_LIMITS } from '#lib/conversations/service.ts';
import { listAuditEntries } from '#lib/db/audit.ts';
import {
  conversationIdOf,
  MAX_BLOCKS,
  getConversation as storedConversation,
} from '#lib/db/conversations.ts';
import { blockKey, inboxEntryKey, messageKey, throttleWindowKey, userKey } from '#lib/db/keys.ts';
import { deleteAccount } from '#lib/privacy/deletion.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { measured, startMeasuring, stopMeasuring } from '#lib/table/metrics.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBookBody, putBook, setBookStatus } from '#tests/helpers/books.ts';
import {
  adminGetConversation,
  asked,
  askSeller,
  blockUser,
  getConversation,
  getConversations,
  markConversationRead,
  messageBuyer,
  sendMessage,
  unblockUser,
} from '#tests/helpers/conversations.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectEnvelope, expectOk, expectRefusal } from '#tests/helpers/schema.ts';
import { setStored } from '#tests/helpers/stored.ts';
import { consumeNew, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

afterEach(() => stopMeasuring());

/** A seller with a listed book, and a buyer. */
async function sellerBuyerBook() {
  const seller = await makeUser({ firstName: 'Sam' });
  const buyer = await makeUser({ firstName: 'Bea' });
  const book = await putBook({ ownerId: seller.id, ownerFirstName: 'Sam', photos: [{ id: 'photo1' }] });
  return { seller, buyer, book };
}

async function list(user: TestUser, query?: Record<string, string>) {
  const res = await getConversations(user.token, query);
  expect(res.status).toBe(200);
  const body = res.json<{ next: string | null }>();
  return { items: expectEnvelope(body, z.array(ConversationSummary)), next: body.next };
}

async function thread(user: TestUser, conversationId: string, query?: Record<string, string>) {
  const res = await getConversation(user.token, conversationId, { query });
  expect(res.status).toBe(200);
  const body = res.json<{ next: string | null }>();
  return { thread: expectEnvelope(body, Thread), next: body.next, etag: res.headers.etag };
}

const stored = async (key: { pk: string; sk: string }) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item;

/** The ids the user's profile holds as blocked (empty when none). */
const blockedOf = async (userId: string) =>
  new Set((await stored(userKey(userId)))?.blockedIds as Set<string> | undefined);

/** Fills the caller's current window of a limit, as if they had used it all. */
async function useUpLimit(userId: string, policy: { action: string; limit: number; windowSeconds: number }) {
  const seconds = Math.floor(Date.now() / 1000);
  const start = seconds - (seconds % policy.windowSeconds);
  await setStored(throttleWindowKey(policy.action, userId, start), { count: policy.limit, type: 'throttle' });
}

/**
 * The answer to the first message between two students, about a book: 201, the message the
 * sender's own and tagged with the book, stored as sent; the conversation with both first names
 * (Sam the seller, Bea the buyer) at version 1; unread 1 in the recipient's inbox, 0 in the sender's.
 */
async function expectFirstMessage(
  res: { status: number; json(): unknown },
  {
    from,
    to,
    book,
    text,
  }: { from: TestUser; to: TestUser; book: { id: string; name: string }; text: string },
) {
  expect(res.status).toBe(201);
  const sent = expectEnvelope(res.json(), SentMessage);
  expect(sent.conversationId).toBe(conversationIdOf(from.id, to.id));
  const tag = { bookId: book.id, bookName: book.name };
  expect(sent.message).toEqual({
    id: expect.any(String),
    senderId: from.id,
    mine: true,
    text,
    at: expect.any(String),
    ...tag,
  });
  expect(await stored(messageKey(sent.conversationId, sent.message.id))).toMatchObject({
    senderId: from.id,
    text,
    ...tag,
  });
  expect(await storedConversation(sent.conversationId)).toMatchObject({
    participants: [from.id, to.id].sort(),
    names: { [from.id]: from.record.firstName, [to.id]: to.record.firstName },
    version: 1,
  });
  expect(await stored(inboxEntryKey(to.id, sent.conversationId))).toMatchObject({
    unread: 1,
    otherId: from.id,
  });
  expect(await stored(inboxEntryKey(from.id, sent.conversationId))).toMatchObject({
    unread: 0,
    otherId: to.id,
  });
  return sent;
}

describe('POST /api/user/askSeller', () => {
  it("starts the caller's conversation with the seller: 201, the message tagged with the book, both inboxes written", async () => {
    const { seller, buyer, book } = await sellerBuyerBook();
    const text = 'Is it still available?\nCan we meet?';
    const res = await askSeller(buyer.token, { bookId: book.id, text });
    await expectFirstMessage(res, { from: buyer, to: seller, book, text });
  });

  it('continues the same one conversation for another book of the same seller', async () => {
    const { seller, buyer, book } = await sellerBuyerBook();
    const other = await putBook({ ownerId: seller.id, ownerFirstName: 'Sam' });
    const first = await asked(buyer.token, book.id);
    const second = await asked(buyer.token, other.id, 'And this one?');
    expect(second.conversationId).toBe(first.conversationId);
    expect((await storedConversation(first.conversationId))?.version).toBe(2);
    const sellerList = await list(seller);
    expect(sellerList.items).toHaveLength(1);
    expect(sellerList.items[0]).toMatchObject({
      id: first.conversationId,
      book: { id: other.id, name: other.name, photo: null },
      unread: 2,
    });
    // one thread for both books: each question names its own book, a reply names none
    await sendMessage(seller.token, { conversationId: first.conversationId, text: 'Both are here.' });
    const read = await thread(seller, first.conversationId);
    expect(read.thread.messages.map((m) => [m.text, m.bookId, m.bookName])).toEqual([
      ['Is it still available?', book.id, book.name],
      ['And this one?', other.id, other.name],
      ['Both are here.', undefined, undefined],
    ]);
  });

  it('answers the seller’s reply in the same thread, whoever starts it', async () => {
    const { seller, buyer, book } = await sellerBuyerBook();
    const started = await asked(buyer.token, book.id);
    const buyerBook = await putBook({ ownerId: buyer.id, ownerFirstName: 'Bea' });
    // the seller asks about one of the buyer's books: still their one conversation
    const back = await asked(seller.token, buyerBook.id, 'I might buy yours too');
    expect(back.conversationId).toBe(started.conversationId);
  });

  it('lets the buyer of a book ask its seller after checkout', async () => {
    const { seller, buyer, book } = await sellerBuyerBook();
    await setBookStatus(book, 1, { buyerId: buyer.id, boughtAt: new Date().toISOString() });
    const sent = await asked(buyer.token, book.id, 'When can we meet?');
    expect(sent.conversationId).toBe(conversationIdOf(buyer.id, seller.id));
  });

  it.each([
    ['the caller’s own book', 'own'],
    ['an unknown book', 'unknown'],
    ['a hidden book', 'hidden'],
    ['an unlisted book', 'unlisted'],
    ['a book someone else bought', 'bought'],
  ])('answers 404 for %s and writes nothing', async (_name, kind) => {
    const { seller, buyer, book } = await sellerBuyerBook();
    let bookId = book.id;
    let caller = buyer;
    if (kind === 'own') caller = seller;
    if (kind === 'unknown') bookId = '01JUNKNOWNBOOK000000000000';
    if (kind === 'hidden') await setStored({ pk: `BOOK#${book.id}`, sk: 'BOOK' }, { hidden: true });
    if (kind === 'unlisted') await setBookStatus(book, 5);
    if (kind === 'bought') {
      const other = await makeUser();
      await setBookStatus(book, 1, { buyerId: other.id, boughtAt: new Date().toISOString() });
    }
    expectRefusal(await askSeller(caller.token, { bookId, text: 'Hello' }), 404, 'NOT_FOUND');
    expect(await storedConversation(conversationIdOf(buyer.id, seller.id))).toBeNull();
  });

  it('never reveals the seller’s e-mail address or payment username', async () => {
    const { seller, buyer, book } = await sellerBuyerBook();
    const res = await askSeller(buyer.token, { bookId: book.id, text: 'Hi' });
    const sent = expectEnvelope(res.json(), SentMessage);
    const answers = [
      res.body,
      (await getConversations(buyer.token)).body,
      (await getConversation(buyer.token, sent.conversationId)).body,
    ].join('\n');
    expect(answers).not.toContain(seller.record.emailAddress);
    expect(answers).not.toContain(seller.record.paymentUsername);
  });
});

describe('POST /api/user/messageBuyer', () => {
  /** A seller's book bought by the buyer (status 1, as checkout leaves it). */
  async function sold() {
    const sides = await sellerBuyerBook();
    await setBookStatus(sides.book, 1, { buyerId: sides.buyer.id, boughtAt: new Date().toISOString() });
    return sides;
  }

  it('lets the seller of a bought book write first: 201, the message tagged with the book, both inboxes written', async () => {
    const { seller, buyer, book } = await sold();
    const text = 'When suits you for the hand-over?';
    const res = await messageBuyer(seller.token, { bookId: book.id, text });
    // both first names, the seller's from the book and the buyer's from their profile
    const sent = await expectFirstMessage(res, { from: seller, to: buyer, book, text });
    // the buyer reads it in their list, and the seller's next message continues the same thread
    expect((await list(buyer)).items[0]).toMatchObject({
      id: sent.conversationId,
      book: { id: book.id, name: book.name },
      unread: 1,
    });
    const again = await messageBuyer(seller.token, { bookId: book.id, text: 'Tomorrow at noon?' });
    expect(expectEnvelope(again.json(), SentMessage).conversationId).toBe(sent.conversationId);
    expect((await storedConversation(sent.conversationId))?.version).toBe(2);
  });

  it('continues the conversation the buyer started', async () => {
    const { seller, buyer, book } = await sold();
    const asked1 = await asked(buyer.token, book.id, 'When can we meet?');
    const res = await messageBuyer(seller.token, { bookId: book.id, text: 'Friday?' });
    expect(res.status).toBe(201);
    expect(expectEnvelope(res.json(), SentMessage).conversationId).toBe(asked1.conversationId);
    expect((await thread(buyer, asked1.conversationId)).thread.messages.map((m) => m.text)).toEqual([
      'When can we meet?',
      'Friday?',
    ]);
  });

  it.each([
    ['a listed book nobody bought', 'listed'],
    ['someone else’s sold book (the buyer too)', 'not-seller'],
    ['an unknown book', 'unknown'],
    ['an unlisted book', 'unlisted'],
  ])('answers 404 for %s and writes nothing', async (_name, kind) => {
    const { seller, buyer, book } = await sellerBuyerBook();
    let caller = seller;
    let bookId = book.id;
    if (kind !== 'listed')
      await setBookStatus(book, 1, { buyerId: buyer.id, boughtAt: new Date().toISOString() });
    if (kind === 'not-seller') caller = buyer;
    if (kind === 'unknown') bookId = '01JUNKNOWNBOOK000000000000';
    if (kind === 'unlisted') await setBookStatus(book, 5);
    expectRefusal(await messageBuyer(caller.token, { bookId, text: 'Hello' }), 404, 'NOT_FOUND');
    expect(await storedConversation(conversationIdOf(buyer.id, seller.id))).toBeNull();
  });

  it('is refused while the buyer blocks the seller: 403, nothing written', async () => {
    const { seller, buyer, book } = await sold();
    expect((await blockUser(buyer.token, seller.id)).status).toBe(200);
    expectRefusal(await messageBuyer(seller.token, { bookId: book.id, text: 'Hello' }), 403, 'BLOCKED');
    expect(await storedConversation(conversationIdOf(buyer.id, seller.id))).toBeNull();
  });

  it('refuses unknown fields with 400', async () => {
    const { seller, book } = await sold();
    expectRefusal(
      await messageBuyer(seller.token, { bookId: book.id, text: 'Hi', to: 'someone' }),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('message text', () => {
  it.each([
    ['an empty text', ''],
    ['only blanks', '  \n '],
    ['2,001 characters', 'a'.repeat(2001)],
    ['a control character', 'hello\u0007'],
    ['a NUL', 'hel\u0000lo'],
  ])('refuses %s with 400 and writes nothing', async (_name, text) => {
    const { seller, buyer, book } = await sellerBuyerBook();
    expectRefusal(await askSeller(buyer.token, { bookId: book.id, text }), 400, 'VALIDATION_FAILED');
    expect(await storedConversation(conversationIdOf(buyer.id, seller.id))).toBeNull();
  });

  it('takes exactly 2,000 characters (emoji count as one) and stores the text as typed', async () => {
    const { buyer, book } = await sellerBuyerBook();
    const text = `<b>${'😀'.repeat(1993)}</b>`;
    const sent = await asked(buyer.token, book.id, text);
    const page = await thread(buyer, sent.conversationId);
    expect(page.thread.messages.map((m) => m.text)).toEqual([text]);
  });

  it('refuses unknown fields with 400', async () => {
    const { buyer, book } = await sellerBuyerBook();
    const res = await askSeller(buyer.token, { bookId: book.id, text: 'Hi', to: 'someone' });
    expectRefusal(res, 400, 'VALIDATION_FAILED');
  });
});

describe('POST /api/user/sendMessage', () => {
  it('adds a message to the conversation: 201, the other side’s unread count goes up, the sender’s goes to 0', async () => {
    const { seller, buyer, book } = await sellerBuyerBook();
    const { conversationId } = await asked(buyer.token, book.id);
    const res = await sendMessage(seller.token, { conversationId, text: 'Yes, it is.' });
    expect(res.status).toBe(201);
    expect(expectEnvelope(res.json(), SentMessage).message).toMatchObject({
      senderId: seller.id,
      mine: true,
    });
    expect(await stored(inboxEntryKey(seller.id, conversationId))).toMatchObject({ unread: 0 });
    expect(await stored(inboxEntryKey(buyer.id, conversationId))).toMatchObject({ unread: 1 });
    expect((await storedConversation(conversationId))?.version).toBe(2);
  });

  it("answers 404 for someone else's conversation, and for an unknown one", async () => {
    const { buyer, book } = await sellerBuyerBook();
    const { conversationId } = await asked(buyer.token, book.id);
    const stranger = await makeUser();
    expectRefusal(await sendMessage(stranger.token, { conversationId, text: 'hi' }), 404, 'NOT_FOUND');
    expectRefusal(
      await sendMessage(stranger.token, { conversationId: 'AAAAAAAAAAAAAAAAAAAAAA', text: 'hi' }),
      404,
      'NOT_FOUND',
    );
    expect((await storedConversation(conversationId))?.version).toBe(1);
  });

  it('refuses a conversation id that is not one with 400', async () => {
    const user = await makeUser();
    expectRefusal(
      await sendMessage(user.token, { conversationId: 'CONV#x', text: 'hi' }),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('GET /api/user/getConversations', () => {
  it('lists the caller’s conversations newest activity first, a page at a time, with the other side’s first name, book and photo', async () => {
    const me = await makeUser({ firstName: 'Mia' });
    const sellers = [await makeUser({ firstName: 'One' }), await makeUser({ firstName: 'Two' })];
    const books = [];
    for (const s of sellers)
      books.push(
        await putBook({ ownerId: s.id, ownerFirstName: s.record.firstName, photos: [{ id: 'p1' }] }),
      );
    const first = await asked(me.token, String(books[0]?.id), 'first');
    const second = await asked(me.token, String(books[1]?.id), 'second');
    // activity in the first conversation brings it back to the top
    await sendMessage(String(sellers[0]?.token), { conversationId: first.conversationId, text: 'reply' });
    const page1 = await list(me, { limit: '1' });
    expect(page1.items.map((c) => c.id)).toEqual([first.conversationId]);
    expect(page1.items[0]).toEqual({
      id: first.conversationId,
      other: { id: sellers[0]?.id, firstName: 'One' },
      book: {
        id: books[0]?.id,
        name: books[0]?.name,
        photo: {
          id: 'p1',
          url: expect.stringContaining(`${books[0]?.id}/p1`),
          mediumUrl: expect.stringContaining(`${books[0]?.id}/p1-800.webp`),
          thumbnailUrl: expect.any(String),
        },
      },
      lastMessage: { id: expect.any(String), text: 'reply', at: expect.any(String), mine: false },
      unread: 1,
      lastActivityAt: expect.any(String),
    });
    const page2 = await list(me, { limit: '1', cursor: String(page1.next) });
    expect(page2.items.map((c) => c.id)).toEqual([second.conversationId]);
    const page3 = await list(me, { limit: '1', cursor: String(page2.next) });
    expect(page3.items).toEqual([]);
    expect(page3.next).toBeNull();
  });

  it('refuses a cursor of another user’s list with 400', async () => {
    const { buyer, book } = await sellerBuyerBook();
    await asked(buyer.token, book.id);
    await asked(buyer.token, (await putBook({ ownerId: (await makeUser()).id })).id);
    const cursor = (await list(buyer, { limit: '1' })).next;
    const other = await makeUser();
    expectRefusal(await getConversations(other.token, { cursor: String(cursor) }), 400, 'VALIDATION_FAILED');
  });
});

describe('GET /api/user/getConversation/{conversationId}', () => {
  it('pages the messages newest last; next opens older ones', async () => {
    const { seller, buyer, book } = await sellerBuyerBook();
    const { conversationId } = await asked(buyer.token, book.id, 'm0');
    for (let i = 1; i < 5; i++)
      await sendMessage((i % 2 ? seller : buyer).token, { conversationId, text: `m${i}` });
    const latest = await thread(buyer, conversationId, { limit: '2' });
    expect(latest.thread.other).toEqual({ id: seller.id, firstName: 'Sam' });
    expect(latest.thread.messages.map((m) => [m.text, m.mine])).toEqual([
      ['m3', false],
      ['m4', true],
    ]);
    const older = await thread(buyer, conversationId, { limit: '2', cursor: String(latest.next) });
    expect(older.thread.messages.map((m) => m.text)).toEqual(['m1', 'm2']);
    const oldest = await thread(buyer, conversationId, { limit: '2', cursor: String(older.next) });
    expect(oldest.thread.messages.map((m) => m.text)).toEqual(['m0']);
  });

  it("answers 404 for someone else's conversation", async () => {
    const { buyer, book } = await sellerBuyerBook();
    const { conversationId } = await asked(buyer.token, book.id);
    const stranger = await makeUser();
    expectRefusal(await getConversation(stranger.token, conversationId), 404, 'NOT_FOUND');
  });

  it('answers 304 to an unchanged poll with If-None-Match, for one GetItem beyond the sign-in check and no Query', async () => {
    const { seller, buyer, book } = await sellerBuyerBook();
    const { conversationId } = await asked(buyer.token, book.id);
    const first = await thread(seller, conversationId);
    expect(first.etag).toMatch(/^"1-/);
    startMeasuring({ capacity: true });
    const poll = await getConversation(seller.token, conversationId, { ifNoneMatch: String(first.etag) });
    expect(poll.status).toBe(304);
    expect(poll.body).toBe('');
    expect(poll.headers.etag).toBe(first.etag);
    const calls = measured().operations;
    expect(calls.map((o) => o.command)).toEqual(['GetItem', 'GetItem']);
    expect(calls[1]?.capacityUnits).toBeLessThanOrEqual(1);
    stopMeasuring();
    // a new message changes the ETag: the poll gets the thread
    await sendMessage(buyer.token, { conversationId, text: 'still there?' });
    const changed = await getConversation(seller.token, conversationId, { ifNoneMatch: String(first.etag) });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(first.etag);
    expect(expectEnvelope(changed.json(), Thread).messages.map((m) => m.text)).toContain('still there?');
  });

  it('gives another page another ETag', async () => {
    const { buyer, book } = await sellerBuyerBook();
    const { conversationId } = await asked(buyer.token, book.id);
    const all = await thread(buyer, conversationId);
    const small = await getConversation(buyer.token, conversationId, {
      query: { limit: '1' },
      ifNoneMatch: String(all.etag),
    });
    expect(small.status).toBe(200);
  });
});

describe('POST /api/user/markConversationRead', () => {
  it('sets the caller’s unread count to 0, and leaves the other side’s', async () => {
    const { seller, buyer, book } = await sellerBuyerBook();
    const { conversationId } = await asked(buyer.token, book.id);
    await sendMessage(seller.token, { conversationId, text: 'yes' });
    const res = await markConversationRead(seller.token, conversationId);
    expect(expectOk(res, z.object({ conversationId: z.string(), unread: z.literal(0) }))).toEqual({
      conversationId,
      unread: 0,
    });
    expect(await stored(inboxEntryKey(seller.id, conversationId))).toMatchObject({ unread: 0 });
    expect(await stored(inboxEntryKey(buyer.id, conversationId))).toMatchObject({ unread: 1 });
    expect((await list(seller)).items[0]?.unread).toBe(0);
  });

  it("answers 404 for someone else's conversation and creates no entry", async () => {
    const { buyer, book } = await sellerBuyerBook();
    const { conversationId } = await asked(buyer.token, book.id);
    const stranger = await makeUser();
    expectRefusal(await markConversationRead(stranger.token, conversationId), 404, 'NOT_FOUND');
    expect(await stored(inboxEntryKey(stranger.id, conversationId))).toBeUndefined();
  });
});

describe('blocking', () => {
  it('refuses messages both ways and new conversations with 403 "you can\'t message this person" until unblocked', async () => {
    const { seller, buyer, book } = await sellerBuyerBook();
    const { conversationId } = await asked(buyer.token, book.id);
    expect((await blockUser(seller.token, buyer.id)).status).toBe(200);
    const fromBlocked = await sendMessage(buyer.token, { conversationId, text: 'hello?' });
    expect(expectRefusal(fromBlocked, 403, 'BLOCKED').error).toBe("You can't message this person.");
    expectRefusal(await sendMessage(seller.token, { conversationId, text: 'hi' }), 403, 'BLOCKED');
    expectRefusal(await askSeller(buyer.token, { bookId: book.id, text: 'again' }), 403, 'BLOCKED');
    expect((await storedConversation(conversationId))?.version).toBe(1);
    expect((await unblockUser(seller.token, buyer.id)).status).toBe(200);
    expect((await sendMessage(buyer.token, { conversationId, text: 'hello?' })).status).toBe(201);
  });

  it('refuses a new conversation with someone who blocked the caller', async () => {
    const { seller, buyer, book } = await sellerBuyerBook();
    await blockUser(seller.token, buyer.id);
    expectRefusal(await askSeller(buyer.token, { bookId: book.id, text: 'hi' }), 403, 'BLOCKED');
    expect(await storedConversation(conversationIdOf(buyer.id, seller.id))).toBeNull();
  });

  it("leaves the blocked user's listings out of the blocker's browsing and search until unblocked", async () => {
    const seller = await makeUser({ firstName: 'Sam' });
    const blocker = await makeUser();
    const word = `Zyxtrap${ulid().slice(-6).toLowerCase()}`;
    const reader = new StreamReader();
    await reader.skipToEnd();
    const posted = await booksApi.postBook(seller.token, makeBookBody({ name: `${word} Anatomy` }));
    expect(posted.status).toBe(201);
    const bookId = posted.json<{ data: { id: string } }>().data.id;
    // the stream consumer indexes the book for search
    expect(await consumeNew(reader, `BOOK#${bookId}`)).toBeGreaterThan(0);
    const seen = async (user: TestUser) => {
      const found = await booksApi.search(user.token, word);
      const listed = await booksApi.getAllBooks(user.token, { limit: '100' });
      expect([found.status, listed.status]).toEqual([200, 200]);
      const ids = (res: typeof found) => expectEnvelope(res.json(), z.array(Book)).map((b) => b.id);
      return { search: ids(found).includes(bookId), listing: ids(listed).includes(bookId) };
    };
    expect(await seen(blocker)).toEqual({ search: true, listing: true });

    expect((await blockUser(blocker.token, seller.id)).status).toBe(200);
    expect((await stored(userKey(blocker.id)))?.blockedIds).toEqual(new Set([seller.id]));
    expect(await seen(blocker)).toEqual({ search: false, listing: false });
    // nobody else is affected, and the book itself is still there
    expect(await seen(await makeUser())).toEqual({ search: true, listing: true });
    expect((await booksApi.getBook(bookId, blocker.token)).status).toBe(200);

    expect((await unblockUser(blocker.token, seller.id)).status).toBe(200);
    expect((await stored(userKey(blocker.id)))?.blockedIds).toBeUndefined();
    expect(await seen(blocker)).toEqual({ search: true, listing: true });
  });

  it(`blocks at most ${MAX_BLOCKS} people: 409 beyond, and blocking one of them again is still 200`, async () => {
    const user = await makeUser();
    const others = await Promise.all([makeUser(), makeUser()]);
    const [first, second] = others as [TestUser, TestUser];
    const full = new Set([first.id, ...Array.from({ length: MAX_BLOCKS - 1 }, () => ulid())]);
    await setStored(userKey(user.id), { blockedIds: full });
    const refused = expectRefusal(await blockUser(user.token, second.id), 409, 'TOO_MANY_BLOCKS');
    expect(refused.error).toBe(`You can block up to ${MAX_BLOCKS} people. Unblock someone first.`);
    expect(await stored(blockKey(user.id, second.id))).toBeUndefined();
    expect((await blockedOf(user.id)).has(second.id)).toBe(false);
    expect((await blockUser(user.token, first.id)).status).toBe(200);
    expect((await unblockUser(user.token, first.id)).status).toBe(200);
    expect((await blockUser(user.token, second.id)).status).toBe(200);
    expect((await blockedOf(user.id)).size).toBe(MAX_BLOCKS);
  });

  it('answers 404 for blocking an unknown user and 409 for blocking oneself', async () => {
    const user = await makeUser();
    expectRefusal(await blockUser(user.token, '01JNOSUCHUSER0000000000000'), 404, 'NOT_FOUND');
    expectRefusal(await blockUser(user.token, user.id), 409, 'SELF');
  });
});

describe('who may send', () => {
  it('refuses a suspended user with 403 even while their token still works', async () => {
    const { buyer, book, seller } = await sellerBuyerBook();
    const { conversationId } = await asked(buyer.token, book.id);
    // suspended between the sign-in check and the write
    await setStored(userKey(buyer.id), { suspended: true });
    expectRefusal(await sendMessage(buyer.token, { conversationId, text: 'hi' }), 403, 'SUSPENDED');
    expectRefusal(await askSeller(buyer.token, { bookId: book.id, text: 'hi' }), 403, 'SUSPENDED');
    expect((await storedConversation(conversationIdOf(buyer.id, seller.id)))?.version).toBe(1);
  });

  it('answers 429 with Retry-After past 60 messages an hour', async () => {
    const { seller, buyer, book } = await sellerBuyerBook();
    const { conversationId } = await asked(buyer.token, book.id);
    await useUpLimit(buyer.id, CONVERSATION_LIMITS.messages);
    const res = await sendMessage(buyer.token, { conversationId, text: 'one more' });
    expectRefusal(res, 429, 'TOO_MANY_REQUESTS');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await storedConversation(conversationId))?.version).toBe(1);
    // the other side is not limited by the caller's messages
    expect((await sendMessage(seller.token, { conversationId, text: 'fine' })).status).toBe(201);
  });

  it('answers 429 past 20 new conversations a day, while existing conversations go on', async () => {
    const { buyer, book } = await sellerBuyerBook();
    const { conversationId } = await asked(buyer.token, book.id);
    await useUpLimit(buyer.id, CONVERSATION_LIMITS.newConversations);
    const newSeller = await makeUser();
    const newBook = await putBook({ ownerId: newSeller.id });
    const res = await askSeller(buyer.token, { bookId: newBook.id, text: 'hi' });
    expectRefusal(res, 429, 'TOO_MANY_REQUESTS');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await storedConversation(conversationIdOf(buyer.id, newSeller.id))).toBeNull();
    expect((await askSeller(buyer.token, { bookId: book.id, text: 'again' })).status).toBe(201);
    expect((await sendMessage(buyer.token, { conversationId, text: 'and again' })).status).toBe(201);
  });

  it('counts each message in the sender’s hourly window', async () => {
    const { buyer, book } = await sellerBuyerBook();
    await asked(buyer.token, book.id);
    const policy = CONVERSATION_LIMITS.messages;
    const seconds = Math.floor(Date.now() / 1000);
    const item = await stored(
      throttleWindowKey(policy.action, buyer.id, seconds - (seconds % policy.windowSeconds)),
    );
    expect(item?.count).toBe(1);
  });
});

describe('calls per request', () => {
  it('pins the DynamoDB calls of each route', async () => {
    const { seller, buyer, book } = await sellerBuyerBook();
    const calls = () => measured().operations.map((o) => o.command);

    // sign-in, book, conversation, new-conversation window (2), first name, message window (2), the write
    const FIRST_MESSAGE = [
      'GetItem',
      'GetItem',
      'GetItem',
      'GetItem',
      'UpdateItem',
      'GetItem',
      'GetItem',
      'UpdateItem',
      'TransactWriteItems',
    ];
    startMeasuring();
    const { conversationId } = await asked(buyer.token, book.id);
    expect(calls()).toEqual(FIRST_MESSAGE);

    startMeasuring();
    await asked(buyer.token, book.id, 'again');
    expect(calls()).toEqual(['GetItem', 'GetItem', 'GetItem', 'GetItem', 'UpdateItem', 'TransactWriteItems']);

    startMeasuring();
    expect((await sendMessage(seller.token, { conversationId, text: 'yes' })).status).toBe(201);
    expect(calls()).toEqual(['GetItem', 'GetItem', 'GetItem', 'UpdateItem', 'TransactWriteItems']);

    // messageBuyer, a new conversation: the same 9 calls as askSeller's (the buyer's first name read)
    const other = await makeUser({ firstName: 'Ola' });
    await setBookStatus(book, 1, { buyerId: other.id, boughtAt: new Date().toISOString() });
    startMeasuring();
    expect((await messageBuyer(seller.token, { bookId: book.id, text: 'Hello' })).status).toBe(201);
    expect(calls()).toEqual(FIRST_MESSAGE);

    startMeasuring();
    await list(seller);
    expect(calls()).toEqual(['GetItem', 'Query']);

    startMeasuring();
    await thread(seller, conversationId);
    expect(calls()).toEqual(['GetItem', 'GetItem', 'Query']);

    startMeasuring();
    expect((await markConversationRead(seller.token, conversationId)).status).toBe(200);
    expect(calls()).toEqual(['GetItem', 'UpdateItem']);
  });
});

describe('GET /api/dashboard/getConversation/{conversationId}', () => {
  it('lets an admin read any conversation, and writes each read to the audit log', async () => {
    const { seller, buyer, book } = await sellerBuyerBook();
    const { conversationId } = await asked(buyer.token, book.id, 'question');
    await sendMessage(seller.token, { conversationId, text: 'answer' });
    const admin = await makeUser({ permissionType: 1 });
    for (let i = 0; i < 2; i++) {
      const res = await adminGetConversation(admin.token, conversationId);
      const thread = expectOk(res, AdminThread);
      expect(thread.participants).toEqual(
        expect.arrayContaining([
          { id: seller.id, firstName: 'Sam' },
          { id: buyer.id, firstName: 'Bea' },
        ]),
      );
      expect(thread.messages.map((m) => [m.senderId, m.text, m.bookName])).toEqual([
        [buyer.id, 'question', book.name],
        [seller.id, 'answer', undefined],
      ]);
    }
    const entries = (await listAuditEntries(100, undefined)).items.filter(
      (e) => e.action === 'readConversation' && e.target.id === conversationId,
    );
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      actor: admin.id,
      target: { kind: 'conversation', id: conversationId },
    });
  });

  it('refuses a user who is not an admin with 403, even a participant, and audits nothing', async () => {
    const { buyer, book } = await sellerBuyerBook();
    const { conversationId } = await asked(buyer.token, book.id);
    expectRefusal(await adminGetConversation(buyer.token, conversationId), 403, 'ROLE_REQUIRED');
    const entries = (await listAuditEntries(100, undefined)).items.filter(
      (e) => e.target.id === conversationId,
    );
    expect(entries).toEqual([]);
  });

  it('answers 404 for an unknown conversation', async () => {
    const admin = await makeUser({ permissionType: 1 });
    expectRefusal(await adminGetConversation(admin.token, 'AAAAAAAAAAAAAAAAAAAAAA'), 404, 'NOT_FOUND');
  });
});

describe('POST /api/user/reportMessage', () => {
  const report = (token: string, body: unknown) =>
    invoke(reportMessageHandler, { method: 'POST', route: '/api/user/reportMessage', token, body });
  const queue = (token: string) =>
    invoke(messageReportsHandler, { route: '/api/dashboard/getMessageReports', token });

  it('puts a message of the other side in the admins’ queue with the message as it was, audited, once per user', async () => {
    const { seller, buyer, book } = await sellerBuyerBook();
    const { conversationId, message } = await asked(buyer.token, book.id, 'send me money first');
    const body = { conversationId, messageId: message.id, reason: 'scam', details: 'asks for money' };
    expect(expectOk(await report(seller.token, body), ReportMessageAnswer)).toEqual({
      messageId: message.id,
      reported: true,
    });
    expect((await report(seller.token, body)).status).toBe(200);
    const admin = await makeUser({ permissionType: 1 });
    const reports = expectOk(await queue(admin.token), z.array(MessageReport)).filter(
      (r) => r.conversationId === conversationId,
    );
    expect(reports).toEqual([
      {
        conversationId,
        messageId: message.id,
        reporterId: seller.id,
        // named, so an admin can tell which account to act on
        sender: {
          id: buyer.id,
          firstName: 'Bea',
          lastName: buyer.record.lastName,
          emailAddress: buyer.record.emailAddress,
        },
        reporter: {
          id: seller.id,
          firstName: 'Sam',
          lastName: seller.record.lastName,
          emailAddress: seller.record.emailAddress,
        },
        reason: 'scam',
        details: 'asks for money',
        at: expect.any(String),
        message: { senderId: buyer.id, text: 'send me money first', at: message.at },
      },
    ]);
    const audited = (await listAuditEntries(100, undefined)).items.filter(
      (e) => e.action === 'reportMessage' && e.target.id === conversationId,
    );
    expect(audited).toHaveLength(1);
    expectRefusal(await queue(seller.token), 403, 'ROLE_REQUIRED');
  });

  it("answers 404 for someone else's conversation or an unknown message, 409 for one's own message", async () => {
    const { seller, buyer, book } = await sellerBuyerBook();
    const { conversationId, message } = await asked(buyer.token, book.id);
    const stranger = await makeUser();
    const body = { conversationId, messageId: message.id, reason: 'spam' };
    expectRefusal(await report(stranger.token, body), 404, 'NOT_FOUND');
    expectRefusal(
      await report(seller.token, { ...body, messageId: '01JAAAAAAAAAAAAAAAAAAAAAAA' }),
      404,
      'NOT_FOUND',
    );
    expectRefusal(await report(buyer.token, body), 409, 'OWN_MESSAGE');
    expectRefusal(await report(seller.token, { ...body, reason: 'boring' }), 400, 'VALIDATION_FAILED');
  });
});

describe('a deleted account', () => {
  it('shows as "deleted user" in the other side’s list and thread, keeps the messages, and takes no new ones', async () => {
    const seller = await createConfirmedUser({ firstName: 'Sam' });
    const buyer = await makeUser({ firstName: 'Bea' });
    const book = await putBook({ ownerId: seller.record.id, ownerFirstName: 'Sam' });
    const { conversationId } = await asked(buyer.token, book.id, 'question');
    await sendMessage(seller.token, { conversationId, text: 'answer' });

    await deleteAccount(
      { userId: seller.record.id, tokenVersion: seller.record.tokenVersion },
      seller.password,
    );

    expect((await list(buyer)).items[0]?.other).toEqual({ id: seller.record.id, firstName: 'deleted user' });
    const page = await thread(buyer, conversationId);
    expect(page.thread.other.firstName).toBe('deleted user');
    expect(page.thread.messages.map((m) => m.text)).toEqual(['question', 'answer']);
    expectRefusal(await sendMessage(buyer.token, { conversationId, text: 'hello?' }), 409, 'RECIPIENT_GONE');
    expect(await stored(inboxEntryKey(seller.record.id, conversationId))).toBeUndefined();
  });
});
