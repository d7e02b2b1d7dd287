/**
 * E-mail exactly once, through failures: SES sits behind a fault-injecting proxy in this file (the
 * configuration is read when the modules load, so they are imported after the proxy is up).
 */
import { afterAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { startFaultyProxy } from '#tests/helpers/faulty-proxy.ts';

const proxy = await startFaultyProxy(inject('sesUrl'));
process.env.SES_ENDPOINT = proxy.url;

const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
const { db, TABLE } = await import('#lib/db/client.ts');
const { notificationKey } = await import('#lib/db/keys.ts');
const { consume } = await import('#lib/streams/consume.ts');
const { processors } = await import('#functions/streams/processors.ts');
const { EMAIL_CLAIM_LEASE_MS } = await import('#lib/notifications/notify.ts');
const { putBook } = await import('#tests/helpers/books.ts');
const { sentEmails } = await import('#tests/helpers/e2e.ts');
const { makeContext } = await import('#tests/helpers/lambda.ts');
const { createRequest, requestBody, storedItems, userMatches } = await import('#tests/helpers/matching.ts');
const { asEvent, StreamReader } = await import('#tests/helpers/stream.ts');
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
  const buyer = await makeUser();
  const seller = await makeUser();
  const body = requestBody();
  await createRequest(buyer.token, body);
  const book = await putBook({ ownerId: seller.id, course: body.course });
  const records = await reader.next();
  return { buyer, book, records };
}

describe('e-mail delivery from the stream consumer', () => {
  it('keeps the match and the notification when SES fails, fails the record, and sends once on the retry', async () => {
    const { buyer, book, records } = await matchingPair();
    const failedBefore = recordedMetrics('EmailsFailed');
    const sentBefore = recordedMetrics('EmailsSent');
    proxy.failing = true;
    const first = await consume(asEvent(records), makeContext(), processors);
    // The refused send is counted as failed (the emails-failed alarm's metric), not as sent.
    expect(recordedMetrics('EmailsFailed')).toBe(failedBefore + 1);
    expect(recordedMetrics('EmailsSent')).toBe(sentBefore);
    const bookRecord = records.find((r) => r.dynamodb?.Keys?.pk?.S === `BOOK#${book.id}`);
    expect(first.batchItemFailures).toEqual([{ itemIdentifier: bookRecord?.dynamodb?.SequenceNumber }]);
    expect(proxy.refused).toBeGreaterThan(0);
    // The state change is not lost: the match and the notification are stored, the e-mail is pending.
    expect((await userMatches(buyer.token)).map((m) => m.id)).toEqual([book.id]);
    const [notification] = await storedItems(buyer.id, 'NOTIF#');
    expect(notification?.emailState).toBe('pending');
    expect(await emailsTo(buyer.record.emailAddress)).toEqual([]);

    proxy.failing = false;
    for (let i = 0; i < 2; i++) {
      const retry = await consume(asEvent(records), makeContext(), processors);
      expect(retry.batchItemFailures).toEqual([]);
    }
    expect(await emailsTo(buyer.record.emailAddress)).toHaveLength(1);
    expect(recordedMetrics('EmailsSent')).toBe(sentBefore + 1);
    expect(recordedMetrics('EmailsFailed')).toBe(failedBefore + 1);
    expect(await storedItems(buyer.id, 'NOTIF#')).toEqual([expect.objectContaining({ emailState: 'sent' })]);
    expect(await storedItems(buyer.id, 'MATCH#')).toHaveLength(1);
  });

  it('matches and notifies every requester of a book even when the e-mail to one of them fails', async () => {
    const [first, second, seller] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    const body = requestBody();
    await createRequest(first.token, body);
    await createRequest(second.token, { ...body, name: `${body.name} Other` });
    await reader.next(); // the requests' own records, before any book exists
    const book = await putBook({ ownerId: seller.id, course: body.course });
    const records = await reader.next();
    proxy.failing = true;
    const res = await consume(asEvent(records), makeContext(), processors);
    expect(res.batchItemFailures).toHaveLength(1);
    for (const buyer of [first, second]) {
      expect((await userMatches(buyer.token)).map((m) => m.id)).toEqual([book.id]);
      expect(await storedItems(buyer.id, 'NOTIF#')).toEqual([
        expect.objectContaining({ emailState: 'pending' }),
      ]);
    }
    proxy.failing = false;
    expect((await consume(asEvent(records), makeContext(), processors)).batchItemFailures).toEqual([]);
    for (const buyer of [first, second]) expect(await emailsTo(buyer.record.emailAddress)).toHaveLength(1);
  });

  it('fails the record while another delivery holds a fresh claim on the e-mail, and sends nothing', async () => {
    const { buyer, records } = await matchingPair();
    proxy.failing = true;
    await consume(asEvent(records), makeContext(), processors); // stores the notification, e-mail pending
    proxy.failing = false;
    const [n] = await storedItems(buyer.id, 'NOTIF#');
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: notificationKey(buyer.id, String(n?.id)),
        UpdateExpression: 'SET emailState = :s, emailClaimedAt = :at',
        ExpressionAttributeValues: { ':s': 'sending', ':at': new Date().toISOString() },
      }),
    );
    const res = await consume(asEvent(records), makeContext(), processors);
    // Both the book's record and the request's (which now finds the indexed book) lead to this
    // e-mail: both fail, to be retried by the stream once the claim is released or expires.
    const seqOf = (prefix: string) =>
      records
        .filter((r) => r.dynamodb?.Keys?.sk?.S?.startsWith(prefix))
        .map((r) => r.dynamodb?.SequenceNumber);
    expect(res.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(
      [...seqOf('BOOK'), ...seqOf('REQUEST#')].sort(),
    );
    expect(await emailsTo(buyer.record.emailAddress)).toEqual([]);
  });

  it('takes over a claim left by a consumer that died before marking the e-mail sent', async () => {
    const { buyer, records } = await matchingPair();
    proxy.failing = true;
    await consume(asEvent(records), makeContext(), processors);
    proxy.failing = false;
    const [n] = await storedItems(buyer.id, 'NOTIF#');
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: notificationKey(buyer.id, String(n?.id)),
        UpdateExpression: 'SET emailState = :s, emailClaimedAt = :at',
        ExpressionAttributeValues: {
          ':s': 'sending',
          ':at': new Date(Date.now() - EMAIL_CLAIM_LEASE_MS - 1000).toISOString(),
        },
      }),
    );
    const res = await consume(asEvent(records), makeContext(), processors);
    expect(res.batchItemFailures).toEqual([]);
    expect(await emailsTo(buyer.record.emailAddress)).toHaveLength(1);
  });
});
