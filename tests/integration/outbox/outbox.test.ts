/**
 * The e-mail outbox (lib/db/outbox.ts, lib/outbox/outbox.ts) with the unlisting notices, its first
 * user (issue 20 item 16): a notice is written with the change it tells about, so neither a run that
 * dies after a page nor an SES outage loses it; the outbox consumer sends it once, the sweeper
 * retries what failed and gives up, with an alarm metric, after 3 days. SES sits behind a fault
 * proxy in this file (the configuration is read when the modules load, so they are imported after).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFaultyProxy } from '#tests/helpers/faulty-proxy.ts';

const proxy = await startFaultyProxy(inject('sesUrl'));
process.env.SES_ENDPOINT = proxy.url;

const { GetCommand } = await import('#lib/table/commands.ts');
const { outboxProcessors } = await import('#functions/streams/outbox.ts');
const { unlistStaleBooks } = await import('#lib/dashboard/unlisting.ts');
const { db, TABLE } = await import('#lib/table/client.ts');
const { OUTBOX_FAILED_PK, outboxKey } = await import('#lib/db/keys.ts');
const { queryPartition } = await import('#tests/helpers/query.ts');
const { consume, toChange } = await import('#lib/streams/consume.ts');
const { claim } = await import('#lib/db/outbox.ts');
const { setPreferences } = await import('#lib/db/preferences.ts');
const { recordedMetrics } = await import('#lib/metrics.ts');
const { LEASE_MS, MAX_AGE_MS, OPEN_GRACE_MS, retryDelayMs, sweepOutbox } = await import(
  '#lib/outbox/outbox.ts'
);
const { daysBefore, readBook, seedBook } = await import('#tests/helpers/books.ts');
const { sentEmails } = await import('#tests/helpers/e2e.ts');
const { asEvent, StreamReader } = await import('#tests/helpers/stream.ts');
const { makeContext } = await import('#tests/helpers/lambda.ts');
const { makeUser } = await import('#tests/helpers/users.ts');

afterAll(() => proxy.close());

const MINUTE = 60_000;
const stream = new StreamReader();
beforeAll(async () => {
  await stream.skipToEnd();
});

/** Each user's outbox message ids, as seen on the stream (the ids hold the run's id). */
const noticeIds = new Map<string, Set<string>>();
/** Outbox records read from the stream and not yet delivered. */
let pending: Awaited<ReturnType<InstanceType<typeof StreamReader>['next']>> = [];

async function pull(): Promise<void> {
  const records = (await stream.next()).filter((r) => r.dynamodb?.Keys?.pk?.S?.startsWith('OUTBOX#'));
  for (const r of records) {
    const image = toChange(r).newImage;
    if (image)
      noticeIds.set(image.recipientId, (noticeIds.get(image.recipientId) ?? new Set()).add(image.id));
  }
  pending.push(...records);
}

/**
 * The outbox consumer's half: the records written since the last delivery that its event filter
 * lets through (outbox messages that became ready) are delivered `deliveries` times; none may fail.
 * Returns how many there were.
 */
async function deliver(deliveries = 1): Promise<number> {
  await pull();
  const ready = pending.filter((r) => toChange(r).newImage?.state === 'ready');
  pending = [];
  for (let i = 0; i < deliveries; i++) {
    const res = await consume(asEvent(ready), makeContext(), outboxProcessors);
    expect(res.batchItemFailures).toEqual([]);
  }
  return ready.length;
}
const mailsTo = async (address: string) =>
  (await sentEmails()).filter((m) => m.destination.to.includes(address));
const later = (now: Date, ms: number) => new Date(now.getTime() + ms);

/** The one outbox message stored for a user (found through the stream). */
async function onlyNotice(userId: string): Promise<Record<string, unknown>> {
  await pull();
  const ids = [...(noticeIds.get(userId) ?? [])];
  expect(ids, 'one notice for this user').toHaveLength(1);
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: outboxKey(ids[0] as string), ConsistentRead: true }),
  );
  return out.Item ?? {};
}

describe('unlisting notices through the outbox', () => {
  it('keeps the notice of a run that dies after a page: the sweeper sends it, once, naming exactly the unlisted books', async () => {
    const owner = await makeUser();
    const now = new Date();
    const books = [];
    for (let i = 0; i < 5; i++)
      books.push(await seedBook(owner.id, { date: daysBefore(now, 100, i * 1000), name: `Dying run ${i}` }));
    // The run is killed (Lambda's timeout) right after its first page of 3 committed.
    let checks = 0;
    const timeLeftMs = () => {
      if (checks++ >= 1) throw new Error('Task timed out after 900.00 seconds');
      return 60_000;
    };
    await expect(unlistStaleBooks({ now, actor: 'system:test', pageSize: 3, timeLeftMs })).rejects.toThrow(
      'Task timed out',
    );
    // oldest first: the three largest offsets were unlisted
    expect((await Promise.all(books.map((b) => readBook(b.id)))).map((b) => b?.status)).toEqual([
      0, 0, 5, 5, 5,
    ]);
    const open = await onlyNotice(owner.id);
    expect(open).toMatchObject({ state: 'open', kind: 'unlisted', attempts: 0 });
    expect((open.books as { id: string }[]).map((b) => b.id).sort()).toEqual(
      books
        .slice(2)
        .map((b) => b.id)
        .sort(),
    );

    // Nothing is sent while the notice is open, nor by a sweep before the run's grace is over.
    expect(await deliver()).toBe(0);
    expect(await sweepOutbox(later(now, OPEN_GRACE_MS - MINUTE))).toEqual({ woken: 0, failed: 0 });
    expect(await mailsTo(owner.record.emailAddress)).toEqual([]);

    expect(await sweepOutbox(later(now, OPEN_GRACE_MS + MINUTE))).toEqual({ woken: 1, failed: 0 });
    expect(await deliver(2)).toBe(1);
    const mails = await mailsTo(owner.record.emailAddress);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('3 of your books were unlisted');
    for (const b of books.slice(2)) expect(mails[0]?.body.text).toContain(`${b.name} (`);
    for (const b of books.slice(0, 2)) expect(mails[0]?.body.text).not.toContain(`${b.name} (`);
    const sent = await onlyNotice(owner.id);
    expect(sent).toMatchObject({ state: 'sent', outcome: 'sent', attempts: 1 });
    expect(sent.gsi1pk).toBeUndefined();
    expect(typeof sent.ttl).toBe('number');
    // A later sweep finds nothing more to do.
    expect(await sweepOutbox(later(now, OPEN_GRACE_MS + 30 * MINUTE))).toEqual({ woken: 0, failed: 0 });
    // The next run carries on with the two books left, under a notice of its own.
    expect(await unlistStaleBooks({ now, actor: 'system:test' })).toEqual({ unlisted: 2, complete: true });
    expect(await deliver()).toBe(1);
    expect((await mailsTo(owner.record.emailAddress)).map((m) => m.subject).sort()).toEqual([
      '2 of your books were unlisted',
      '3 of your books were unlisted',
    ]);
  });

  it('rides out an SES outage: the failed send waits, the sweeper retries it after its back-off, and it goes out once', async () => {
    const owner = await makeUser();
    const now = new Date();
    await seedBook(owner.id, { date: daysBefore(now, 90), name: 'Outage A' });
    await seedBook(owner.id, { date: daysBefore(now, 91), name: 'Outage B' });
    const failedBefore = recordedMetrics('EmailsFailed');
    proxy.failing = true;
    expect(await unlistStaleBooks({ now, actor: 'system:test' })).toEqual({ unlisted: 2, complete: true });
    // The failed send does not fail the stream record (consumeNew throws if it did): the message waits.
    expect(await deliver()).toBe(1);
    expect(proxy.refused).toBeGreaterThan(0);
    expect(recordedMetrics('EmailsFailed')).toBe(failedBefore + 1);
    const waiting = await onlyNotice(owner.id);
    expect(waiting).toMatchObject({ state: 'retry', attempts: 1 });
    expect(String(waiting.lastError)).not.toBe('');
    const retryAt = new Date(String(waiting.due)).getTime();
    expect(retryAt - Date.now()).toBeGreaterThan(retryDelayMs(1) - MINUTE);
    expect(retryAt - Date.now()).toBeLessThanOrEqual(retryDelayMs(1));

    proxy.failing = false;
    // Not before its back-off is over.
    expect(await sweepOutbox(new Date(retryAt - MINUTE))).toEqual({ woken: 0, failed: 0 });
    expect(await deliver()).toBe(0);
    expect(await sweepOutbox(new Date(retryAt + 1))).toEqual({ woken: 1, failed: 0 });
    expect(await deliver(2)).toBe(1);
    const mails = await mailsTo(owner.record.emailAddress);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('2 of your books were unlisted');
    expect(await onlyNotice(owner.id)).toMatchObject({ state: 'sent', outcome: 'sent', attempts: 2 });
  });

  it('wakes a message whose sender died holding the claim once the lease is over, and sends it once', async () => {
    const owner = await makeUser();
    const now = new Date();
    await seedBook(owner.id, { date: daysBefore(now, 90) });
    await unlistStaleBooks({ now, actor: 'system:test' });
    const ready = await onlyNotice(owner.id);
    expect(ready.state).toBe('ready');
    // Another delivery claimed it, then its process died before sending.
    expect(await claim(String(ready.id), later(new Date(), LEASE_MS).toISOString(), 1)).toBe(true);
    expect(await deliver()).toBe(1); // the ready record: the claim is held, nothing is sent
    expect(await mailsTo(owner.record.emailAddress)).toEqual([]);
    expect(await sweepOutbox(later(new Date(), LEASE_MS - MINUTE))).toEqual({ woken: 0, failed: 0 });
    expect(await sweepOutbox(later(new Date(), LEASE_MS + MINUTE))).toEqual({ woken: 1, failed: 0 });
    expect(await deliver()).toBe(1);
    expect(await mailsTo(owner.record.emailAddress)).toHaveLength(1);
    expect(await onlyNotice(owner.id)).toMatchObject({ state: 'sent', attempts: 2 });
  });

  it('gives up after 3 days: the message is kept as failed under OUTBOX#FAILED and counted for the alarm', async () => {
    const owner = await makeUser();
    const now = new Date();
    await seedBook(owner.id, { date: daysBefore(now, 90) });
    proxy.failing = true;
    try {
      await unlistStaleBooks({ now, actor: 'system:test' });
      await deliver();
      const waiting = await onlyNotice(owner.id);
      expect(waiting.state).toBe('retry');
      const failedBefore = recordedMetrics('OutboxFailed');
      expect(await sweepOutbox(later(now, MAX_AGE_MS + MINUTE))).toEqual({ woken: 0, failed: 1 });
      expect(recordedMetrics('OutboxFailed')).toBe(failedBefore + 1);
      const failed = await onlyNotice(owner.id);
      expect(failed).toMatchObject({
        state: 'failed',
        gsi1pk: OUTBOX_FAILED_PK,
        lastError: waiting.lastError,
      });
      const listed = await queryPartition(OUTBOX_FAILED_PK, { index: 'gsi1' });
      expect(listed.map((i) => i.id)).toContain(failed.id);
      // It stays failed: no later sweep sends or counts it again.
      expect(await sweepOutbox(later(now, MAX_AGE_MS + 60 * MINUTE))).toEqual({ woken: 0, failed: 0 });
      expect(recordedMetrics('OutboxFailed')).toBe(failedBefore + 1);
      expect(await mailsTo(owner.record.emailAddress)).toEqual([]);
    } finally {
      proxy.failing = false;
    }
  });

  it('sends nothing to an owner who turned listing e-mails off, and closes the message', async () => {
    const owner = await makeUser();
    await setPreferences(owner.id, { listings: false });
    const now = new Date();
    await seedBook(owner.id, { date: daysBefore(now, 90) });
    await unlistStaleBooks({ now, actor: 'system:test' });
    expect(await deliver()).toBe(1);
    expect(await mailsTo(owner.record.emailAddress)).toEqual([]);
    expect(await onlyNotice(owner.id)).toMatchObject({ state: 'sent', outcome: 'skipped' });
  });
});
