import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConversationSummary, SentMessage, Thread } from '#lib/conversations/schemas.ts';
import { makeBook } from '#tests/helpers/books.ts';
import { api } from '#tests/helpers/e2e.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { makeUser } from '#tests/helpers/users.ts';

describe('a conversation over HTTP', () => {
  it('asks the seller, polls the thread with If-None-Match (304 until the reply), lists and marks read', async () => {
    const [seller, buyer] = await Promise.all([
      makeUser({ firstName: 'Sam' }),
      makeUser({ firstName: 'Bea' }),
    ]);
    const book = await makeBook(seller, { price: 12 });

    const asked = await api('POST', '/api/user/askSeller', {
      token: buyer.token,
      body: { bookId: book.id, text: 'Is it still available? Library at 5?' },
    });
    expect(asked.status).toBe(201);
    const { conversationId } = expectEnvelope(asked.body, SentMessage);

    const inbox = await api('GET', '/api/user/getConversations', { token: seller.token });
    expect(inbox.status).toBe(200);
    expect(expectEnvelope(inbox.body, z.array(ConversationSummary))).toEqual([
      expect.objectContaining({
        id: conversationId,
        other: { id: buyer.id, firstName: 'Bea' },
        unread: 1,
        lastMessage: expect.objectContaining({ text: 'Is it still available? Library at 5?', mine: false }),
      }),
    ]);

    const path = `/api/user/getConversation/${conversationId}`;
    const opened = await api('GET', path, { token: buyer.token });
    expect(opened.status).toBe(200);
    const etag = opened.headers.get('etag');
    expect(etag).toMatch(/^"1-/);
    expect(expectEnvelope(opened.body, Thread).messages.map((m) => m.text)).toEqual([
      'Is it still available? Library at 5?',
    ]);

    const unchanged = await api('GET', path, {
      token: buyer.token,
      headers: { 'if-none-match': String(etag) },
    });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');

    const reply = await api('POST', '/api/user/sendMessage', {
      token: seller.token,
      body: { conversationId, text: 'Yes, see you there.' },
    });
    expect(reply.status).toBe(201);

    const changed = await api('GET', path, {
      token: buyer.token,
      headers: { 'if-none-match': String(etag) },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(expectEnvelope(changed.body, Thread).messages.map((m) => [m.text, m.mine])).toEqual([
      ['Is it still available? Library at 5?', true],
      ['Yes, see you there.', false],
    ]);

    const read = await api('POST', '/api/user/markConversationRead', {
      token: buyer.token,
      body: { conversationId },
    });
    expect(read.status).toBe(200);
    const after = await api('GET', '/api/user/getConversations', { token: buyer.token });
    expect(expectEnvelope(after.body, z.array(ConversationSummary))[0]?.unread).toBe(0);

    const stranger = await makeUser();
    const refused = await api('GET', path, { token: stranger.token });
    expect(refused.status).toBe(404);
    expectError(refused.body, 'NOT_FOUND');
  });

  it('refuses a message to someone who blocked the sender with 403', async () => {
    const [seller, buyer] = await Promise.all([makeUser(), makeUser()]);
    const book = await makeBook(seller);
    expect(
      (await api('POST', '/api/user/blockUser', { token: seller.token, body: { userId: buyer.id } })).status,
    ).toBe(200);
    const res = await api('POST', '/api/user/askSeller', {
      token: buyer.token,
      body: { bookId: book.id, text: 'hi' },
    });
    expect(res.status).toBe(403);
    expect(expectError(res.body, 'BLOCKED').error).toBe("You can't message this person.");
  });
});
