/** exportData: the caller's books and orders (and the rest), never a hash or a token. */
import { describe, expect, it } from 'vitest';
import { handler as exportHandler } from '#functions/user/export-data.ts';
import { DataExport } from '#lib/privacy/export.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { makeBook } from '#tests/helpers/books.ts';
import { addToCart, checkout } from '#tests/helpers/cart.ts';
import { asked, blockUser, sendMessage } from '#tests/helpers/conversations.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { createRequest } from '#tests/helpers/matching.ts';
import { saveBook } from '#tests/helpers/saved.ts';
import { expectEnvelope } from '#tests/helpers/schema.ts';

const exportOf = async (token: string) => {
  const res = await invoke(exportHandler, { route: '/api/user/exportData', token });
  expect(res.status).toBe(200);
  return { doc: expectEnvelope(res.json(), DataExport), raw: res.body };
};

describe('GET /api/user/exportData', () => {
  it('holds the user’s profile, preferences, books, requests, cart and orders, and no hash or token', async () => {
    const seller = await createConfirmedUser();
    const buyer = await createConfirmedUser();
    const sold = await makeBook({ id: seller.record.id });
    const wanted = await makeBook({ id: seller.record.id });
    await createRequest(buyer.token);
    expect((await addToCart(buyer.token, sold.id)).status).toBe(200);
    expect((await checkout(buyer.token)).status).toBe(201);
    expect((await addToCart(buyer.token, wanted.id)).status).toBe(200);

    const { doc, raw } = await exportOf(buyer.token);
    expect(doc.profile.emailAddress).toBe(buyer.record.emailAddress);
    expect(doc.preferences).toEqual({
      matches: 'each',
      purchases: true,
      listings: true,
      messages: true,
      saved: true,
    });
    expect(doc.orders).toHaveLength(1);
    expect(JSON.stringify(doc.orders[0])).toContain(sold.id);
    expect(doc.cart.map((c) => c.bookId)).toEqual([wanted.id]);
    expect(doc.requests).toHaveLength(1);
    for (const secret of ['passwordHash', 'tokenVersion', '$2', '$argon2id', 'gsi1pk', '"pk"', buyer.token]) {
      expect(raw).not.toContain(secret);
    }

    const sellerDoc = await exportOf(seller.token);
    expect(sellerDoc.doc.books.map((b) => b.id).sort()).toEqual([sold.id, wanted.id].sort());
    expect(sellerDoc.doc.books.find((b) => b.id === sold.id)?.status).toBe(1);
    expect(sellerDoc.raw).not.toContain('passwordHash');
  });

  it('holds the user’s saved books, each conversation with its messages (both sides, oldest first) and whom they block', async () => {
    const seller = await createConfirmedUser();
    const buyer = await createConfirmedUser();
    const asked1 = await makeBook({ id: seller.record.id });
    const kept = await makeBook({ id: seller.record.id });
    expect((await saveBook(buyer.token, kept.id)).status).toBe(201);
    const { conversationId } = await asked(buyer.token, asked1.id, 'Does it have notes in it?');
    expect((await sendMessage(seller.token, { conversationId, text: 'A few, in pencil.' })).status).toBe(201);

    for (const [who, other] of [
      [buyer, seller],
      [seller, buyer],
    ] as const) {
      const { doc } = await exportOf(who.token);
      expect(doc.conversations).toHaveLength(1);
      const [thread] = doc.conversations;
      expect(thread?.conversationId).toBe(conversationId);
      expect(thread?.otherId).toBe(other.record.id);
      const messages = thread?.messages as { senderId: string; text: string }[];
      expect(messages.map((m) => [m.senderId, m.text])).toEqual([
        [buyer.record.id, 'Does it have notes in it?'],
        [seller.record.id, 'A few, in pencil.'],
      ]);
    }
    // the people one blocks are theirs too; the thread stays in both exports
    expect((await blockUser(buyer.token, seller.record.id)).status).toBe(200);
    const { doc } = await exportOf(buyer.token);
    expect(doc.saved.map((b) => b.bookId)).toEqual([kept.id]);
    expect(doc.blocked).toEqual([expect.objectContaining({ blockedId: seller.record.id })]);
    expect(doc.conversations).toHaveLength(1);
    const sellerDoc = (await exportOf(seller.token)).doc;
    expect(sellerDoc.saved).toEqual([]);
    expect(sellerDoc.blocked).toEqual([]);
  });
});
