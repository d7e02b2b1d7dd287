/**
 * The matcher and the status notifications, fed real stream records of this file's table, the
 * way Lambda would hand them to the consumer.
 */

import type { DynamoDBRecord } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { processors } from '#functions/streams/processors.ts';
import { cancelPurchase } from '#lib/dashboard/handover.ts';
import { deleteBlock, putBlock } from '#lib/db/conversations.ts';
import { bookKey, cartItemKey } from '#lib/db/keys.ts';
import { listedBooksNow, putMatch } from '#lib/db/matches.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { BookRequest } from '#lib/matching/requests.ts';
import { consume } from '#lib/streams/consume.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { PutCommand } from '#lib/table/commands.ts';
import { measured, startMeasuring } from '#lib/table/metrics.ts';
import * as z from '#lib/zod.ts';
import { putBook, setBookStatus } from '#tests/helpers/books.ts';
import { addToCart, checkout, readUserStats } from '#tests/helpers/cart.ts';
import { sentEmails } from '#tests/helpers/e2e.ts';
import { makeContext } from '#tests/helpers/lambda.ts';
import {
  createRequest,
  deleteRequest,
  getRequests,
  notifications,
  requestBody,
  requesterAndSeller,
  storedItems,
  userMatches,
} from '#tests/helpers/matching.ts';
import { expectEnvelope } from '#tests/helpers/schema.ts';
import { setStored } from '#tests/helpers/stored.ts';
import { asEvent, deliverOutbox, StreamReader, sortedCommands } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

let reader: StreamReader;

beforeEach(async () => {
  reader = new StreamReader();
  await reader.skipToEnd();
});

/**
 * Hands everything written since the last call to the consumer, then the e-mails it queued to the
 * outbox consumer; returns the records and the failures the main consumer reported.
 */
async function deliver(): Promise<{ records: DynamoDBRecord[]; failed: string[] }> {
  const records = await reader.next();
  expect(records.length, 'a batch of stream records').toBeGreaterThan(0);
  const res = await consume(asEvent(records), makeContext(), processors);
  await deliverOutbox(reader);
  return { records, failed: res.batchItemFailures.map((f) => f.itemIdentifier) };
}

/** As `deliver`, and the consumer must report no failed record: a throwing processor fails the test. */
async function runConsumer(): Promise<{ records: DynamoDBRecord[]; failed: string[] }> {
  const result = await deliver();
  expect(result.failed, 'records the consumer reported as failed').toEqual([]);
  return result;
}

/**
 * At-least-once delivery: hands what was written since the last call to the consumer `times` times
 * (no record may fail), then the e-mails it queued to the outbox consumer twice; returns how many
 * e-mails were queued.
 */
async function deliverRepeatedly(times: number): Promise<number> {
  const records = await reader.next();
  expect(records.length, 'a batch of stream records').toBeGreaterThan(0);
  for (let i = 0; i < times; i++) {
    const res = await consume(asEvent(records), makeContext(), processors);
    expect(res.batchItemFailures).toEqual([]);
  }
  return deliverOutbox(reader, 2);
}

/** A buyer and a seller, and a tag that keeps this test's titles and courses its own. */
const buyerAndSeller = async () => ({
  buyer: await makeUser(),
  seller: await makeUser(),
  tag: Date.now().toString(36),
});

const emailsTo = async (user: TestUser) =>
  (await sentEmails()).filter((m) => m.destination.to.includes(user.record.emailAddress));

describe('matching a newly listed book against open requests', () => {
  it('matches by ISBN (ISBN-10 request, ISBN-13 book): stores the match, notifies and e-mails the requester', async () => {
    const { buyer, seller } = await buyerAndSeller();
    const request = await createRequest(buyer.token, requestBody({ ISBN: '0-306-40615-2' }));
    const book = await putBook({ ownerId: seller.id, ISBN: '9780306406157', name: 'Measure Theory' });
    expect((await runConsumer()).failed).toEqual([]);

    const matches = await userMatches(buyer.token);
    expect(matches.map((m) => [m.id, m.requestIds, m.inCart])).toEqual([[book.id, [request.id], false]]);
    const { items } = await notifications(buyer.token);
    expect(items).toEqual([
      expect.objectContaining({
        kind: 'match',
        bookId: book.id,
        read: false,
        message: expect.stringContaining('Measure Theory'),
      }),
    ]);
    const mails = await emailsTo(buyer);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/Match for your book request: Measure Theory/);
    // the e-mail links to the book, as the notification does
    expect(mails[0]?.body.text).toMatch(new RegExp(`See the book: https?://\\S+/books/${book.id}$`, 'm'));
    expect(await emailsTo(seller)).toEqual([]);
  });

  it('neither matches nor tells a requester who blocked the seller, and hides a match made before the block', async () => {
    const blocker = await makeUser();
    const other = await makeUser();
    const seller = await makeUser();
    const course = `BLK ${Date.now().toString(36)}`;
    await createRequest(blocker.token, requestBody({ course }));
    const request = await createRequest(other.token, requestBody({ course }));
    expect(await putBlock(blocker.id, seller.id, new Date().toISOString())).toBe(true);
    const book = await putBook({ ownerId: seller.id, course, name: 'Measure Theory' });
    expect((await runConsumer()).failed).toEqual([]);

    // the blocker: no match stored, no notification, no e-mail
    expect(await userMatches(blocker.token)).toEqual([]);
    expect(await storedItems(blocker.id, 'MATCH#')).toEqual([]);
    expect((await notifications(blocker.token)).items).toEqual([]);
    expect(await emailsTo(blocker)).toEqual([]);
    // everyone else is matched as before
    expect((await userMatches(other.token)).map((m) => [m.id, m.requestIds])).toEqual([
      [book.id, [request.id]],
    ]);

    // a match made before its requester blocked the seller leaves their list, and returns on unblocking
    expect(await putBlock(other.id, seller.id, new Date().toISOString())).toBe(true);
    expect(await userMatches(other.token)).toEqual([]);
    await deleteBlock(other.id, seller.id);
    expect((await userMatches(other.token)).map((m) => m.id)).toEqual([book.id]);
  });

  it('matches by normalised course code and by every requested title word', async () => {
    const { buyer, seller, tag } = await buyerAndSeller();
    const byCourse = await createRequest(buyer.token, { name: `Zzcourse${tag}`, course: `csc-1${tag}` });
    const byTitle = await createRequest(buyer.token, {
      name: `The Quantum${tag} Mechanics`,
      course: `PHY ${tag}`,
    });
    const courseBook = await putBook({ ownerId: seller.id, course: `CSC 1${tag}`, name: 'Something Else' });
    const titleBook = await putBook({ ownerId: seller.id, name: `Mechanics: quantum${tag}, 2nd edition` });
    const noBook = await putBook({ ownerId: seller.id, name: `Quantum${tag} Field Theory` });
    expect((await runConsumer()).failed).toEqual([]);

    const matches = await userMatches(buyer.token);
    expect(matches.map((m) => [m.id, m.requestIds])).toEqual([
      [titleBook.id, [byTitle.id]],
      [courseBook.id, [byCourse.id]],
    ]);
    expect(matches.map((m) => m.id)).not.toContain(noBook.id);
    expect((await notifications(buyer.token)).items).toHaveLength(2);
    expect(await emailsTo(buyer)).toHaveLength(2);
  });

  it('lists a book matching two requests of one user once, with both request ids, notified once', async () => {
    const { buyer, seller, tag } = await buyerAndSeller();
    const a = await createRequest(buyer.token, { name: `Topology${tag}`, course: `MTH ${tag}` });
    const b = await createRequest(buyer.token, { name: `Other${tag}`, course: `MTH-${tag}` });
    const book = await putBook({ ownerId: seller.id, name: `Topology${tag}`, course: `mth${tag}` });
    await runConsumer();
    const matches = await userMatches(buyer.token);
    expect(matches).toHaveLength(1);
    expect(matches[0]?.id).toBe(book.id);
    expect(matches[0]?.requestIds.sort()).toEqual([a.id, b.id].sort());
    expect((await notifications(buyer.token)).items).toHaveLength(1);
    expect(await emailsTo(buyer)).toHaveLength(1);
  });

  it("never matches a user's own book to their request", async () => {
    const user = await makeUser();
    await createRequest(user.token, requestBody({ ISBN: '9780131103627' }));
    await putBook({ ownerId: user.id, ISBN: '9780131103627' });
    expect((await runConsumer()).failed).toEqual([]);
    expect(await userMatches(user.token)).toEqual([]);
    expect(await storedItems(user.id, 'MATCH#')).toEqual([]);
    expect((await notifications(user.token)).items).toEqual([]);
    expect(await emailsTo(user)).toEqual([]);
  });

  it('does not match a book that is not listed (status 5)', async () => {
    const { buyer, seller, body } = await requesterAndSeller();
    await putBook({ ownerId: seller.id, course: body.course, status: 5 });
    await runConsumer();
    expect(await storedItems(buyer.id, 'MATCH#')).toEqual([]);
  });
});

describe('GET /api/books/getUserMatches', () => {
  it('marks the books in the caller’s cart and reads in a fixed number of operations', async () => {
    const { buyer, seller, body } = await requesterAndSeller();
    const inCart = await putBook({
      ownerId: seller.id,
      course: body.course,
      date: '2026-03-02T00:00:00.000Z',
    });
    const notInCart = await putBook({
      ownerId: seller.id,
      course: body.course,
      date: '2026-03-01T00:00:00.000Z',
    });
    await db.send(
      new PutCommand({ TableName: TABLE, Item: { ...cartItemKey(buyer.id, inCart.id), bookId: inCart.id } }),
    );
    await runConsumer();
    startMeasuring();
    const matches = await userMatches(buyer.token);
    expect(sortedCommands()).toEqual(['BatchGetItem', 'GetItem', 'Query']); // the books come with their matches: no BatchGet of books
    expect(matches.map((m) => [m.id, m.inCart])).toEqual([
      [inCart.id, true],
      [notInCart.id, false],
    ]);
    expect(matches[0]).toMatchObject({ owner: { id: seller.id }, status: 0, price: inCart.priceCents / 100 });
  });

  it('answers an empty list without matches, reading nothing but the matches', async () => {
    const user = await makeUser();
    startMeasuring();
    expect(await userMatches(user.token)).toEqual([]);
    expect(measured().operations.map((o) => o.command)).toEqual(['GetItem', 'Query']);
  });
});

describe('the book fields on matches', () => {
  it('rewrites the matches found by the book and by a request when the price or condition changes, and drops them when hidden', async () => {
    const early = await makeUser();
    const late = await makeUser();
    const seller = await makeUser();
    const body = requestBody();
    await createRequest(early.token, body);
    const book = await putBook({ ownerId: seller.id, course: body.course, priceCents: 2000 });
    await runConsumer(); // matched from the book's record
    await createRequest(late.token, body);
    await runConsumer(); // matched from the late request's record
    for (const user of [early, late]) {
      const [match] = await storedItems(user.id, 'MATCH#');
      expect(match?.book).toMatchObject({ id: book.id, priceCents: 2000, name: book.name });
    }
    await setStored(bookKey(book.id), { priceCents: 1599, condition: 'acceptable' }); // as a price change would
    await runConsumer();
    for (const user of [early, late]) {
      const [match] = await storedItems(user.id, 'MATCH#');
      expect(match?.book).toMatchObject({ priceCents: 1599, condition: 'acceptable' });
      expect((await userMatches(user.token)).map((m) => [m.id, m.price, m.condition])).toEqual([
        [book.id, 15.99, 'acceptable'],
      ]);
    }
    await setStored(bookKey(book.id), { hidden: true }); // as the moderation would
    await runConsumer();
    for (const user of [early, late]) {
      expect(await storedItems(user.id, 'MATCH#')).toEqual([]);
      expect(await userMatches(user.token)).toEqual([]);
    }
  });

  it('never stores a match from a request with fields the book no longer has', async () => {
    const { buyer, seller } = await buyerAndSeller();
    const request = await createRequest(buyer.token, requestBody());
    const book = await putBook({ ownerId: seller.id, priceCents: 700 });
    const read = (await listedBooksNow([book.id])).get(book.id);
    expect(read?.book.priceCents).toBe(700);
    await setStored(bookKey(book.id), { priceCents: 800 });
    const match = { userId: buyer.id, requestId: request.id, bookId: book.id, bookDate: book.date };
    const stale = { ...match, createdAt: new Date().toISOString(), book: read?.book as BookRecord };
    expect(await putMatch(stale, read?.sameValues)).toBe(false);
    expect(await storedItems(buyer.id, 'MATCH#')).toEqual([]);
    const fresh = (await listedBooksNow([book.id])).get(book.id);
    expect(await putMatch({ ...stale, book: fresh?.book as BookRecord }, fresh?.sameValues)).toBe(true);
    expect((await storedItems(buyer.id, 'MATCH#'))[0]?.book).toMatchObject({ priceCents: 800 });
  });
});

describe('matching a new request against listed books', () => {
  it('finds a book listed earlier, by course, and tells the requester', async () => {
    const { buyer, seller } = await buyerAndSeller();
    const body = requestBody();
    const book = await putBook({ ownerId: seller.id, course: body.course.toLowerCase() });
    await runConsumer();
    const request = await createRequest(buyer.token, body);
    expect((await runConsumer()).failed).toEqual([]);
    expect((await userMatches(buyer.token)).map((m) => [m.id, m.requestIds])).toEqual([
      [book.id, [request.id]],
    ]);
    expect((await notifications(buyer.token)).items.map((n) => n.kind)).toEqual(['match']);
    expect(await emailsTo(buyer)).toHaveLength(1);
  });

  it('finds books by the requested title words, newest first, leaving out the requester’s own', async () => {
    const { buyer, seller, tag } = await buyerAndSeller();
    const older = await putBook({
      ownerId: seller.id,
      name: `Organic${tag} Chemistry`,
      date: '2026-01-01T00:00:00.000Z',
    });
    const newer = await putBook({
      ownerId: seller.id,
      name: `Chemistry organic${tag} 2`,
      date: '2026-02-01T00:00:00.000Z',
    });
    await putBook({ ownerId: buyer.id, name: `Organic${tag} Chemistry` });
    await putBook({ ownerId: seller.id, name: `Organic${tag} Biology` });
    await runConsumer();
    await createRequest(buyer.token, { name: `chemistry ORGANIC${tag}`, course: `CHM ${tag}` });
    await runConsumer();
    expect((await userMatches(buyer.token)).map((m) => m.id)).toEqual([newer.id, older.id]);
  });
});

describe('books that leave status 0 and deleted requests', () => {
  it('drops a sold book from getUserMatches once the consumer deleted its matches', async () => {
    const { buyer, seller, body } = await requesterAndSeller();
    const other = await makeUser();
    const book = await putBook({ ownerId: seller.id, course: body.course });
    await runConsumer();
    expect(await userMatches(buyer.token)).toHaveLength(1);

    await setBookStatus(book, 1, { buyerId: other.id, boughtAt: new Date().toISOString() });
    expect(await storedItems(buyer.id, 'MATCH#')).toHaveLength(1);
    expect((await runConsumer()).failed).toEqual([]);
    expect(await storedItems(buyer.id, 'MATCH#')).toEqual([]);
    expect(await userMatches(buyer.token)).toEqual([]);
  });

  it('matches a re-listed book again (5 -> 0 with a fresh date) and notifies again', async () => {
    const { buyer, seller, body } = await requesterAndSeller();
    const book = await putBook({ ownerId: seller.id, course: body.course });
    await runConsumer();
    const unlisted = await setBookStatus(book, 5);
    await runConsumer();
    expect(await userMatches(buyer.token)).toEqual([]);
    await setBookStatus(unlisted, 0, { date: new Date(Date.now() + 1000).toISOString() });
    await runConsumer();
    expect((await userMatches(buyer.token)).map((m) => m.id)).toEqual([book.id]);
    expect((await notifications(buyer.token)).items.map((n) => n.kind)).toEqual(['match', 'match']);
  });

  it('takes the matches of a deleted request with it, keeping the matches of the others', async () => {
    const { buyer, seller, tag } = await buyerAndSeller();
    const gone = await createRequest(buyer.token, { name: `Anatomy${tag}`, course: `BIO ${tag}` });
    const kept = await createRequest(buyer.token, { name: `Physiology${tag}`, course: `BIO-${tag}` });
    const book = await putBook({ ownerId: seller.id, course: `bio${tag}`, name: 'Human Body' });
    await runConsumer();
    expect((await userMatches(buyer.token))[0]?.requestIds.sort()).toEqual([gone.id, kept.id].sort());

    expect((await deleteRequest(buyer.token, gone.id)).status).toBe(200);
    expect((await userMatches(buyer.token)).map((m) => [m.id, m.requestIds])).toEqual([[book.id, [kept.id]]]);
    expect((await runConsumer()).failed).toEqual([]);
    expect((await storedItems(buyer.id, 'MATCH#')).map((m) => m.requestId)).toEqual([kept.id]);
  });

  it('closes the buyer’s requests the bought book answers, tells them once in the app, and keeps one for its course only', async () => {
    const { buyer, seller, tag } = await buyerAndSeller();
    // a valid ISBN-13 of this test alone: 978 + 9 digits + the check digit
    const digits = `978${String(Date.now()).slice(-9)}`;
    const sum = [...digits].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0);
    const isbn = `${digits}${(10 - (sum % 10)) % 10}`;
    const course = `ANS ${tag}`;
    const byIsbn = await createRequest(buyer.token, { name: 'Any Title', course: `OTH ${tag}`, ISBN: isbn });
    const byTitle = await createRequest(buyer.token, { name: `Quasar${tag} Optics`, course: `OTH-${tag}` });
    const byCourse = await createRequest(buyer.token, { name: `Nebula${tag} Workbook`, course });
    const book = await putBook({ ownerId: seller.id, course, ISBN: isbn, name: `Quasar${tag} Optics` });
    await runConsumer();
    expect((await userMatches(buyer.token))[0]?.requestIds.sort()).toEqual(
      [byIsbn.id, byTitle.id, byCourse.id].sort(),
    );
    expect((await readUserStats(buyer.id))?.openRequests).toBe(3);

    expect((await addToCart(buyer.token, book.id)).status).toBe(200);
    expect((await checkout(buyer.token)).status).toBe(201);
    // the purchase's record delivered twice, then the deleted requests' own records
    await deliverRepeatedly(2);
    await runConsumer();

    const left = expectEnvelope((await getRequests(buyer.token)).json(), z.array(BookRequest));
    expect(left.map((r) => r.id)).toEqual([byCourse.id]);
    expect((await readUserStats(buyer.id))?.openRequests).toBe(1);
    expect(await storedItems(buyer.id, 'MATCH#')).toEqual([]);
    const told = (await notifications(buyer.token)).items.filter((n) => n.kind === 'fulfilled');
    expect(told).toHaveLength(2);
    expect(told).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          bookId: book.id,
          link: '/requests',
          message: expect.stringContaining(`so your request for "Any Title" is closed`),
        }),
        expect.objectContaining({
          bookId: book.id,
          link: '/requests',
          message: expect.stringContaining(`so your request for "Quasar${tag} Optics" is closed`),
        }),
      ]),
    );
    // in the app only: the purchase is what the e-mails are about
    expect((await emailsTo(buyer)).filter((m) => /request is closed/.test(m.subject))).toEqual([]);
  });

  it('never stores a match for a request deleted before the book is matched', async () => {
    const { buyer, seller, body, request } = await requesterAndSeller();
    await putBook({ ownerId: seller.id, course: body.course });
    await deleteRequest(buyer.token, request.id);
    expect((await runConsumer()).failed).toEqual([]);
    expect(await storedItems(buyer.id, 'MATCH#')).toEqual([]);
    expect(await emailsTo(buyer)).toEqual([]);
  });
});

describe('at-least-once delivery', () => {
  it('changes nothing twice when the same records are delivered again: one match, one notification, one e-mail', async () => {
    const { buyer, seller, body } = await requesterAndSeller();
    await putBook({ ownerId: seller.id, course: body.course });
    expect(await deliverRepeatedly(3)).toBe(1);
    expect(await storedItems(buyer.id, 'MATCH#')).toHaveLength(1);
    expect(await storedItems(buyer.id, 'NOTIF#')).toHaveLength(1);
    expect(await emailsTo(buyer)).toHaveLength(1);
  });

  it('reports only a poison record as failed and applies the rest of the batch', async () => {
    const { buyer, seller, body } = await requesterAndSeller();
    // A listed book item without a name or course: the matcher cannot read it.
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...bookKey('poison-book'), type: 'book', id: 'poison-book', status: 0 },
      }),
    );
    const good = await putBook({ ownerId: seller.id, course: body.course });
    const { records, failed } = await deliver();
    const poison = records.find((r) => r.dynamodb?.Keys?.pk?.S === bookKey('poison-book').pk);
    expect(failed).toEqual([poison?.dynamodb?.SequenceNumber]);
    expect((await userMatches(buyer.token)).map((m) => m.id)).toEqual([good.id]);
  });
});

describe('status changes become notifications', () => {
  async function listedBook() {
    const seller = await makeUser();
    const buyer = await makeUser();
    const book = await putBook({ ownerId: seller.id, name: `Statusbook ${Date.now()}` });
    await runConsumer();
    return { seller, buyer, book };
  }
  const kinds = async (u: TestUser) => (await notifications(u.token)).items.map((n) => n.kind);

  it('tells the seller on 0 -> 1, the buyer on 1 -> 2, and both on 2 -> 3, by e-mail too', async () => {
    const { seller, buyer, book } = await listedBook();
    const bought = await setBookStatus(book, 1, {
      buyerId: buyer.id,
      boughtAt: new Date().toISOString(),
      orderId: 'order-of-status-test',
    });
    await runConsumer();
    expect(await kinds(seller)).toEqual(['sold']);
    expect(await kinds(buyer)).toEqual([]);
    const verified = await setBookStatus(bought, 2);
    await runConsumer();
    expect(await kinds(buyer)).toEqual(['verified']);
    expect(await kinds(seller)).toEqual(['sold']);
    await setBookStatus(verified, 3);
    expect((await runConsumer()).failed).toEqual([]);
    expect(await kinds(seller)).toEqual(['delivered', 'sold']);
    expect(await kinds(buyer)).toEqual(['delivered', 'verified']);
    expect((await notifications(seller.token)).items.every((n) => n.bookId === book.id)).toBe(true);
    // each links to the order: the buyer's whole order, the seller's part of it (getOrder)
    expect((await notifications(buyer.token)).items.map((n) => [n.orderId, n.link])).toEqual([
      ['order-of-status-test', '/orders/order-of-status-test'],
      ['order-of-status-test', '/orders/order-of-status-test'],
    ]);
    expect((await notifications(seller.token)).items.map((n) => [n.orderId, n.link])).toEqual([
      ['order-of-status-test', '/orders/order-of-status-test'],
      ['order-of-status-test', '/orders/order-of-status-test'],
    ]);
    const sellerMails = await emailsTo(seller);
    expect(sellerMails.map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Your book was bought/),
      expect.stringMatching(/^You were paid/),
    ]);
    expect(sellerMails.every((m) => m.body.text?.includes('See the order: '))).toBe(true);
    expect(sellerMails.every((m) => m.body.text?.includes('/orders/order-of-status-test'))).toBe(true);
    const buyerMails = await emailsTo(buyer);
    expect(buyerMails).toHaveLength(2);
    expect(buyerMails.every((m) => m.body.text?.includes('See your order: '))).toBe(true);
    expect(buyerMails.every((m) => m.body.text?.includes('/orders/order-of-status-test'))).toBe(true);
  });

  it.each([1, 2] as const)(
    'tells both seller and buyer when a purchase in status %i is cancelled',
    async (from) => {
      const { seller, buyer, book } = await listedBook();
      let current: BookRecord = await setBookStatus(book, 1, {
        buyerId: buyer.id,
        boughtAt: new Date().toISOString(),
      });
      if (from === 2) current = await setBookStatus(current, 2);
      await runConsumer();
      // the admins' cancelPurchase, with the reason they typed: both sides are told it
      await cancelPurchase('admin-of-cancel-test', book.id, 'The book was not at the hand-over.');
      expect((await runConsumer()).failed).toEqual([]);
      for (const user of [seller, buyer]) {
        const [latest] = (await notifications(user.token)).items;
        expect(latest?.kind).toBe('cancelled');
        expect(latest?.message).toMatch(/was cancelled.* Reason: The book was not at the hand-over\.$/);
        const mails = await emailsTo(user);
        expect(mails.at(-1)?.body.text).toContain('Reason: The book was not at the hand-over.');
      }
    },
  );

  it('notifies once when a status change is delivered twice', async () => {
    const { seller, buyer, book } = await listedBook();
    await setBookStatus(book, 1, { buyerId: buyer.id, boughtAt: new Date().toISOString() });
    expect(await deliverRepeatedly(2)).toBe(1);
    expect(await kinds(seller)).toEqual(['sold']);
    expect(await emailsTo(seller)).toHaveLength(1);
  });

  it('says nothing for moves nobody needs to hear about (0 -> 5)', async () => {
    const { seller, book } = await listedBook();
    await setBookStatus(book, 5);
    await runConsumer();
    expect(await kinds(seller)).toEqual([]);
  });
});
