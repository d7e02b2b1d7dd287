/**
 * A saved book's savers are told, once each however often the stream delivers the change: its price
 * dropped, it was sold, or it was unlisted; by e-mail under the `saved` preference.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { bookKey, outboxKey } from '#lib/db/keys.ts';
import { setPreferences } from '#lib/db/preferences.ts';
import { unsubscribeToken } from '#lib/preferences/unsubscribe.ts';
import { savedBookEvent } from '#lib/saved/notify.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBook } from '#tests/helpers/books.ts';
import { addToCart, checkout, readItem } from '#tests/helpers/cart.ts';
import { notifications, storedItems } from '#tests/helpers/matching.ts';
import { saveBook } from '#tests/helpers/saved.ts';
import { setStored } from '#tests/helpers/stored.ts';
import { consumeNew, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser } from '#tests/helpers/users.ts';

let reader: StreamReader;
beforeEach(async () => {
  reader = new StreamReader();
  await reader.skipToEnd();
});

/** The stored notifications of kind `saved` of a user. */
const savedNotices = async (userId: string) =>
  (await storedItems(userId, 'NOTIF#')).filter((n) => n.kind === 'saved');

/** A seller's book saved by two savers; the stream consumed up to here. */
async function savedBook(price = 30) {
  const [seller, alice, bob] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  const book = await makeBook(seller, { price });
  for (const saver of [alice, bob]) expect((await saveBook(saver.token, book.id)).status).toBe(201);
  await consumeNew(reader, 'BOOK#');
  await consumeNew(reader, 'USER#');
  return { seller, alice, bob, book };
}

describe('telling the savers of a book', () => {
  it('tells each saver once of a price drop (in-app and by e-mail), however often the change is delivered', async () => {
    const { alice, bob, book, seller } = await savedBook(30);
    expect((await booksApi.updateBook(seller.token, { bookId: book.id, price: 22.5 })).status).toBe(200);
    expect(await consumeNew(reader, 'BOOK#', 3)).toBe(1);
    for (const saver of [alice, bob]) {
      const notices = await savedNotices(saver.id);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({
        kind: 'saved',
        bookId: book.id,
        message: `A book you saved, "${book.name}" (${book.course}), now costs $22.50 (was $30.00).`,
        emailState: 'queued',
      });
      const mail = await readItem(outboxKey(`notif.${String(notices[0]?.id)}`));
      expect(mail).toMatchObject({ category: 'saved', recipientId: saver.id });
      expect(JSON.stringify(mail)).toContain('A book you saved is cheaper');
      // the API shows it with its kind and book
      const listed = (await notifications(saver.token)).items.filter((n) => n.kind === 'saved');
      expect(listed).toEqual([expect.objectContaining({ kind: 'saved', bookId: book.id, read: false })]);
    }
    // the seller is told nothing
    expect(await savedNotices(seller.id)).toEqual([]);
  });

  it('says nothing when the price goes up or another field changes', async () => {
    const { alice, book, seller } = await savedBook(30);
    expect((await booksApi.updateBook(seller.token, { bookId: book.id, price: 31 })).status).toBe(200);
    expect(
      (await booksApi.updateBook(seller.token, { bookId: book.id, comments: 'clean copy' })).status,
    ).toBe(200);
    expect(await consumeNew(reader, 'BOOK#', 2)).toBe(2);
    expect(await savedNotices(alice.id)).toEqual([]);
  });

  it('tells the savers once that it was sold, but not its buyer, who saved it too', async () => {
    const { alice, bob, book } = await savedBook();
    expect((await addToCart(bob.token, book.id)).status).toBe(200);
    expect((await checkout(bob.token)).status).toBe(201);
    await consumeNew(reader, 'BOOK#', 2);
    const notices = await savedNotices(alice.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.message).toBe(
      `A book you saved, "${book.name}" (${book.course}), was sold to someone else.`,
    );
    expect(await savedNotices(bob.id)).toEqual([]);
  });

  it('tells the savers once that it was unlisted, hidden by reports, or removed for good', async () => {
    const unlisted = await savedBook();
    expect((await booksApi.deleteBook(unlisted.seller.token, { bookId: unlisted.book.id })).status).toBe(200);
    await consumeNew(reader, 'BOOK#', 2);
    // re-listing it tells nothing more
    expect((await booksApi.reactivateBook(unlisted.seller.token, { bookId: unlisted.book.id })).status).toBe(
      200,
    );
    await consumeNew(reader, 'BOOK#', 2);
    expect(await savedNotices(unlisted.alice.id)).toHaveLength(1);
    expect((await savedNotices(unlisted.alice.id))[0]?.message).toContain('is no longer listed');

    const hidden = await savedBook();
    await setStored(bookKey(hidden.book.id), { hidden: true });
    await consumeNew(reader, 'BOOK#', 2);
    expect(await savedNotices(hidden.bob.id)).toHaveLength(1);

    const removed = await savedBook();
    const res = await booksApi.deleteBook(removed.seller.token, { bookId: removed.book.id, permanent: true });
    expect(res.status).toBe(200);
    expect(await readItem(bookKey(removed.book.id))).toBeUndefined();
    await consumeNew(reader, 'BOOK#', 2);
    expect(await savedNotices(removed.alice.id)).toHaveLength(1);
  });

  it('sends no e-mail to a saver who turned the saved e-mails off (or unsubscribed), and still notifies in-app', async () => {
    const { alice, bob, book, seller } = await savedBook(30);
    await setPreferences(alice.id, { saved: false });
    expect((await readItem({ pk: `USER#${alice.id}`, sk: 'PROFILE' }))?.prefSaved).toBe(false);
    expect(unsubscribeToken(bob.id, 'saved')).toMatch(/\.saved\./);
    expect((await booksApi.updateBook(seller.token, { bookId: book.id, price: 20 })).status).toBe(200);
    await consumeNew(reader, 'BOOK#');
    expect(await savedNotices(alice.id)).toEqual([expect.objectContaining({ emailState: 'none' })]);
    expect(await savedNotices(bob.id)).toEqual([expect.objectContaining({ emailState: 'queued' })]);
  });
});

describe('savedBookEvent', () => {
  const listed = { status: 0, priceCents: 1000, hidden: false } as const;
  it('names the changes savers hear of, and nothing else', () => {
    expect(savedBookEvent(listed, { ...listed, priceCents: 900 })).toBe('priceDrop');
    expect(savedBookEvent(listed, { ...listed, priceCents: 1100 })).toBeNull();
    expect(savedBookEvent(listed, listed)).toBeNull();
    expect(savedBookEvent(listed, { ...listed, status: 1 })).toBe('sold');
    expect(savedBookEvent(listed, { ...listed, status: 5 })).toBe('unlisted');
    expect(savedBookEvent(listed, { ...listed, hidden: true })).toBe('unlisted');
    expect(savedBookEvent(listed, undefined)).toBe('unlisted');
    expect(savedBookEvent(undefined, listed)).toBeNull();
    expect(savedBookEvent({ ...listed, status: 5 }, listed)).toBeNull();
    expect(savedBookEvent({ ...listed, status: 1 }, { ...listed, status: 2 })).toBeNull();
    expect(savedBookEvent({ ...listed, hidden: true }, { ...listed, status: 5 })).toBeNull();
  });
});
