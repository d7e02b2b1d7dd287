/**
 * Match and purchase e-mails through an SES outage (issue 14): the stream consumer stores matches,
 * notifications and the search index and queues the e-mails in the outbox, whatever SES does; the
 * outbox sends each e-mail once SES is back. SES sits behind a fault-injecting proxy in this file
 * (the configuration is read when the modules load, so they are imported after the proxy is up).
 */
import { afterAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { startFaultyProxy } from '#tests/helpers/faulty-proxy.ts';

const proxy = await startFaultyProxy(inject('sesUrl'));
process.env.SES_ENDPOINT = proxy.url;

const { GetCommand } = await import('#lib/table/commands.ts');
const { db, TABLE } = await import('#lib/table/client.ts');
const { outboxKey } = await import('#lib/db/keys.ts');
const { consume } = await import('#lib/streams/consume.ts');
const { processors } = await import('#functions/streams/processors.ts');
const { retryDelayMs, sweepOutbox } = await import('#lib/outbox/outbox.ts');
const { booksApi } = await import('#tests/helpers/book-api.ts');
const { putBook } = await import('#tests/helpers/books.ts');
const { sentEmails } = await import('#tests/helpers/e2e.ts');
const { makeContext } = await import('#tests/helpers/lambda.ts');
const { createRequest, requestBody, requesterAndSeller, storedItems, userMatches } = await import(
  '#tests/helpers/matching.ts'
);
const {
  asEvent,
  deliverOutbox: deliverStreamOutbox,
  StreamReader,
} = await import('#tests/helpers/stream.ts');
const { makeUser } = await import('#tests/helpers/users.ts');
const { recordedMetrics } = await import('#lib/metrics.ts');

afterAll(() => proxy.close());

let reader: InstanceType<typeof StreamReader>;
beforeEach(async () => {
  proxy.failing = false;
  reader = new StreamReader();
  await reader.skipToEnd();
});

const emailsTo = async (address: string) =>
  (await sentEmails()).filter((m) => m.destination.to.includes(address));

/** A request and a matching book; returns the stream records they produced. */
async function matchingPair() {
  const { buyer, seller, body } = await requesterAndSeller();
  const book = await putBook({ ownerId: seller.id, course: body.course });
  const records = await reader.next();
  return { buyer, book, records };
}

const deliverOutbox = (deliveries = 1) => deliverStreamOutbox(reader, deliveries);
const outboxItem = async (notificationId: unknown) =>
  (
    await db.send(
      new GetCommand({
        TableName: TABLE,
        Key: outboxKey(`notif.${String(notificationId)}`),
        ConsistentRead: true,
      }),
    )
  ).Item;

describe('match e-mails through an SES outage', () => {
  it('stores the match, the notification and the search entry on time, and sends the e-mail once SES is back', async () => {
    const { buyer, book, records } = await matchingPair();
    const failedBefore = recordedMetrics('EmailsFailed');
    const sentBefore = recordedMetrics('EmailsSent');
    proxy.failing = true;
    // The stream consumer does not touch SES: no record fails, whatever SES does.
    expect((await consume(asEvent(records), makeContext(), processors)).batchItemFailures).toEqual([]);
    expect((await userMatches(buyer.token)).map((m) => m.id)).toEqual([book.id]);
    const search = (await booksApi.searchPublic(book.name.split(' ').at(-1) as string)).json<{
      data: Array<{ id: string }>;
    }>();
    expect(search.data.map((b) => b.id)).toContain(book.id);
    const [notification] = await storedItems(buyer.id, 'NOTIF#');
    expect(notification?.emailState).toBe('queued');
    expect(await outboxItem(notification?.id)).toMatchObject({
      state: 'ready',
      kind: 'mail',
      category: 'matches',
    });

    // The outbox tries, SES refuses: the e-mail waits.
    expect(await deliverOutbox()).toBe(1);
    expect(proxy.refused).toBeGreaterThan(0);
    expect(recordedMetrics('EmailsFailed')).toBe(failedBefore + 1);
    const waiting = await outboxItem(notification?.id);
    expect(waiting).toMatchObject({ state: 'retry', attempts: 1 });
    expect(await emailsTo(buyer.record.emailAddress)).toEqual([]);

    // SES is back; after the back-off the sweeper wakes it and it goes out once, however often delivered.
    proxy.failing = false;
    const retryAt = new Date(String(waiting?.due)).getTime();
    expect(retryAt - Date.now()).toBeLessThanOrEqual(retryDelayMs(1));
    expect((await sweepOutbox(new Date(retryAt + 1))).woken).toBeGreaterThanOrEqual(1);
    expect(await deliverOutbox(2)).toBeGreaterThanOrEqual(1);
    const mails = await emailsTo(buyer.record.emailAddress);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toContain(book.name);
    expect(recordedMetrics('EmailsSent')).toBe(sentBefore + 1);
    expect(await outboxItem(notification?.id)).toMatchObject({ state: 'sent', outcome: 'sent', attempts: 2 });
    expect(await storedItems(buyer.id, 'MATCH#')).toHaveLength(1);
  });

  it('matches and notifies every requester of a book during an outage, and each gets one e-mail after it', async () => {
    const [first, second, seller] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    const body = requestBody();
    await createRequest(first.token, body);
    await createRequest(second.token, { ...body, name: `${body.name} Other` });
    await reader.next(); // the requests' own records, before any book exists
    const book = await putBook({ ownerId: seller.id, course: body.course });
    const records = await reader.next();
    proxy.failing = true;
    expect((await consume(asEvent(records), makeContext(), processors)).batchItemFailures).toEqual([]);
    for (const buyer of [first, second]) {
      expect((await userMatches(buyer.token)).map((m) => m.id)).toEqual([book.id]);
      expect(await storedItems(buyer.id, 'NOTIF#')).toEqual([
        expect.objectContaining({ emailState: 'queued' }),
      ]);
    }
    expect(await deliverOutbox()).toBe(2);
    proxy.failing = false;
    await sweepOutbox(new Date(Date.now() + retryDelayMs(1) + 1000));
    expect(await deliverOutbox()).toBe(2);
    for (const buyer of [first, second]) expect(await emailsTo(buyer.record.emailAddress)).toHaveLength(1);
  });

  it('queues the e-mail once when the stream delivers the records again', async () => {
    const { buyer, records } = await matchingPair();
    for (let i = 0; i < 3; i++)
      expect((await consume(asEvent(records), makeContext(), processors)).batchItemFailures).toEqual([]);
    // one ready message, however many deliveries (the redeliveries find the notification queued)
    expect(await deliverOutbox(2)).toBe(1);
    expect(await emailsTo(buyer.record.emailAddress)).toHaveLength(1);
  });
});
