/**
 * The business metrics of issue 18 (lib/metrics.ts): each event is counted once when it happens and
 * not when the request fails or repeats. On the test stage the counts are kept in memory
 * (`recordedMetrics`); on AWS the same calls publish CampusBooks/<event> (alarms in infra/).
 * EmailsSent is checked in tests/integration/mail/suppression.test.ts, EmailsFailed in
 * tests/integration/matching/email-delivery.test.ts (SES behind a failing proxy), OutboxFailed in
 * tests/integration/outbox/outbox.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as signupHandler } from '#functions/auth/signup.ts';
import { processors } from '#functions/streams/processors.ts';
import { latestPendingSignup } from '#lib/db/tokens.ts';
import { type BusinessEvent, recordedMetrics } from '#lib/metrics.ts';
import { consume } from '#lib/streams/consume.ts';
import { createConfirmedUser, makeSignup, sendQueuedMail } from '#tests/helpers/accounts.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBook, makeBookBody, putBook } from '#tests/helpers/books.ts';
import { addToCart, checkout, ordersOf } from '#tests/helpers/cart.ts';
import { invoke, makeContext } from '#tests/helpers/lambda.ts';
import { requesterAndSeller, storedItems } from '#tests/helpers/matching.ts';
import { asEvent, deliverOutbox, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser } from '#tests/helpers/users.ts';

const EVENTS: BusinessEvent[] = [
  'SignUps',
  'BooksPosted',
  'Checkouts',
  'Matches',
  'EmailsSent',
  'EmailsFailed',
  'OutboxFailed',
];
let before: Record<BusinessEvent, number>;
/** What each counter gained since the test began (0s included, so an extra count fails too). */
const gained = () => Object.fromEntries(EVENTS.map((e) => [e, recordedMetrics(e) - before[e]]));
const only = (counts: Partial<Record<BusinessEvent, number>>) =>
  Object.fromEntries(EVENTS.map((e) => [e, counts[e] ?? 0]));

beforeEach(() => {
  before = Object.fromEntries(EVENTS.map((e) => [e, recordedMetrics(e)])) as Record<BusinessEvent, number>;
});

const signup = (body: unknown) => invoke(signupHandler, { method: 'POST', route: '/api/auth/signup', body });

describe('business metrics', () => {
  it('counts a sign-up (and its e-mail) once; not a repeated address that already has an account', async () => {
    const body = makeSignup();
    expect((await signup(body)).status).toBe(202);
    expect(await latestPendingSignup(body.emailAddress.toLowerCase())).not.toBeNull();
    // the e-mail is counted when the outbox sends it, once however often its record is delivered
    expect(gained()).toEqual(only({ SignUps: 1 }));
    expect(await sendQueuedMail(2)).toBe(1);
    expect(gained()).toEqual(only({ SignUps: 1, EmailsSent: 1 }));

    const existing = await createConfirmedUser();
    before = Object.fromEntries(EVENTS.map((e) => [e, recordedMetrics(e)])) as Record<BusinessEvent, number>;
    expect((await signup(makeSignup({ emailAddress: existing.record.emailAddress }))).status).toBe(202);
    expect(await sendQueuedMail()).toBe(1);
    expect(gained()).toEqual(only({ EmailsSent: 1 }));
  });

  it('counts a posted book, not a rejected one', async () => {
    const seller = await makeUser();
    const res = await booksApi.postBook(seller.token, makeBookBody());
    expect(res.status).toBe(201);
    expect(gained()).toEqual(only({ BooksPosted: 1 }));
    expect((await booksApi.postBook(seller.token, { ...makeBookBody(), price: -1 })).status).toBe(400);
    expect(gained()).toEqual(only({ BooksPosted: 1 }));
  });

  it('counts a checkout once, not a replay of it nor one that finds the book sold', async () => {
    const seller = await makeUser();
    const buyer = await makeUser();
    const rival = await makeUser();
    const book = await makeBook(seller);
    expect((await addToCart(buyer.token, book.id)).status).toBe(200);
    expect((await addToCart(rival.token, book.id)).status).toBe(200);
    expect((await checkout(buyer.token, 'metrics-key-1')).status).toBe(201);
    expect(await ordersOf(buyer.id)).toHaveLength(1);
    expect(gained()).toEqual(only({ Checkouts: 1 }));

    expect((await checkout(buyer.token, 'metrics-key-1')).status).toBe(201); // replayed
    expect((await checkout(rival.token)).status).toBe(409);
    expect(await ordersOf(rival.id)).toHaveLength(0);
    expect(gained()).toEqual(only({ Checkouts: 1 }));
  });

  it('counts a match (and its e-mail) once, not when the stream delivers the record again', async () => {
    const reader = new StreamReader();
    await reader.skipToEnd();
    const { buyer, seller, body } = await requesterAndSeller();
    await putBook({ ownerId: seller.id, course: body.course });
    const records = await reader.next();
    before = Object.fromEntries(EVENTS.map((e) => [e, recordedMetrics(e)])) as Record<BusinessEvent, number>;

    expect((await consume(asEvent(records), makeContext(), processors)).batchItemFailures).toEqual([]);
    expect(await storedItems(buyer.id, 'MATCH#')).toHaveLength(1);
    expect(gained()).toEqual(only({ Matches: 1 }));
    expect(await deliverOutbox(reader)).toBe(1); // the e-mail goes out from the outbox
    expect(gained()).toEqual(only({ Matches: 1, EmailsSent: 1 }));

    expect((await consume(asEvent(records), makeContext(), processors)).batchItemFailures).toEqual([]);
    expect(await deliverOutbox(reader, 2)).toBe(0);
    expect(gained()).toEqual(only({ Matches: 1, EmailsSent: 1 }));
  });
});
