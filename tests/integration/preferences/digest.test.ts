/**
 * Match e-mail pacing: a relisted book does not e-mail the same requester again within 7 days
 * (the in-app notification still appears), and the daily digest sends one e-mail per user and day.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { processors } from '#functions/streams/processors.ts';
import { getDigestRun, putDigestEntry } from '#lib/db/digests.ts';
import { matchMailKey } from '#lib/db/keys.ts';
import { setPreferences } from '#lib/db/preferences.ts';
import { recordedMetrics } from '#lib/metrics.ts';
import { runDailyDigests, sendDailyDigests } from '#lib/preferences/digest.ts';
import { consume } from '#lib/streams/consume.ts';
import { putBook, setBookStatus } from '#tests/helpers/books.ts';
import { sentEmails } from '#tests/helpers/e2e.ts';
import { makeContext } from '#tests/helpers/lambda.ts';
import { notifications, requesterAndSeller, storedItems } from '#tests/helpers/matching.ts';
import { setStored } from '#tests/helpers/stored.ts';
import { asEvent, deliverOutbox, StreamReader } from '#tests/helpers/stream.ts';

let reader: StreamReader;
beforeEach(async () => {
  reader = new StreamReader();
  await reader.skipToEnd();
});

const emailsTo = async (address: string) =>
  (await sentEmails()).filter((m) => m.destination.to.includes(address));

/** The main consumer over what was written since the last call, then the outbox consumer over what it queued. */
const runConsumer = async () => {
  const res = await consume(asEvent(await reader.next()), makeContext(), processors);
  expect(res.batchItemFailures).toEqual([]);
  await deliverOutbox(reader);
};

/** A requester and a seller, the request's own record consumed; `course` is what a matching book needs. */
async function requestConsumed() {
  const { buyer, seller, body } = await requesterAndSeller();
  await runConsumer();
  return { buyer, seller, course: body.course };
}

describe('relisting', () => {
  it('a relist within 7 days notifies in-app again but sends no second match e-mail', async () => {
    const { buyer, seller, course } = await requestConsumed();
    const book = await putBook({ ownerId: seller.id, course });
    await runConsumer();
    expect(await emailsTo(buyer.record.emailAddress)).toHaveLength(1);

    // unlist, then relist with a fresh date (what deleteBook and reactivateBook do)
    const unlisted = await setBookStatus(book, 5);
    await runConsumer();
    await setBookStatus(unlisted, 0, { date: new Date(Date.now() + 1000).toISOString() });
    await runConsumer();

    const items = (await notifications(buyer.token)).items.filter((n) => n.kind === 'match');
    expect(items).toHaveLength(2);
    expect(items.every((n) => n.bookId === book.id)).toBe(true);
    expect(await emailsTo(buyer.record.emailAddress)).toHaveLength(1);
    const stored = await storedItems(buyer.id, 'NOTIF#');
    expect(stored.map((n) => n.emailState).sort()).toEqual(['none', 'queued']);
  });

  it('a relist more than 7 days after the last e-mail e-mails again', async () => {
    const { buyer, seller, course } = await requestConsumed();
    const book = await putBook({ ownerId: seller.id, course });
    await runConsumer();
    // the e-mail about it went out 8 days ago
    await setStored(matchMailKey(buyer.id, book.id), {
      at: new Date(Date.now() - 8 * 86_400_000).toISOString(),
    });
    const unlisted = await setBookStatus(book, 5);
    await runConsumer();
    await setBookStatus(unlisted, 0, { date: new Date(Date.now() + 1000).toISOString() });
    await runConsumer();
    expect(await emailsTo(buyer.record.emailAddress)).toHaveLength(2);
  });
});

describe('daily digest', () => {
  it('sends one e-mail for three matches of the day, and none on a second run', async () => {
    const { buyer, seller, course } = await requestConsumed();
    await setPreferences(buyer.id, { matches: 'daily' });
    const books = [];
    for (let i = 0; i < 3; i++)
      books.push(await putBook({ ownerId: seller.id, course, name: `Digest Book ${i}` }));
    await runConsumer();
    // in-app as usual, no e-mail yet
    expect((await notifications(buyer.token)).items.filter((n) => n.kind === 'match')).toHaveLength(3);
    expect(await emailsTo(buyer.record.emailAddress)).toEqual([]);

    const day = new Date().toISOString().slice(0, 10);
    const first = await sendDailyDigests({ day });
    expect(first).toMatchObject({ emailsSent: 1, failed: 0, complete: true });
    const mails = await emailsTo(buyer.record.emailAddress);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Your daily matches: 3 books');
    for (const b of books) expect(mails[0]?.body.text).toContain(b.name);

    const second = await sendDailyDigests({ day });
    expect(second.emailsSent).toBe(0);
    expect(await emailsTo(buyer.record.emailAddress)).toHaveLength(1);
  });

  it('lists only the matches still available, and sends nothing when none are', async () => {
    const { buyer, seller, course } = await requestConsumed();
    await setPreferences(buyer.id, { matches: 'daily' });
    const kept = await putBook({ ownerId: seller.id, course, name: 'Still Here' });
    const gone = await putBook({ ownerId: seller.id, course, name: 'Sold Already' });
    await runConsumer();
    await setBookStatus(gone, 1, { buyerId: seller.id, boughtAt: new Date().toISOString() });
    const day = new Date().toISOString().slice(0, 10);
    await sendDailyDigests({ day });
    const [mail, ...rest] = await emailsTo(buyer.record.emailAddress);
    expect(rest).toEqual([]);
    expect(mail?.subject).toBe('Your daily matches: 1 book');
    expect(mail?.body.text).toContain(kept.name);
    expect(mail?.body.text).not.toContain(gone.name);

    const other = await requestConsumed();
    await setPreferences(other.buyer.id, { matches: 'daily' });
    const only = await putBook({ ownerId: other.seller.id, course: other.course });
    await runConsumer();
    await setBookStatus(only, 5);
    await sendDailyDigests({ day });
    expect(await emailsTo(other.buyer.record.emailAddress)).toEqual([]);
  });

  it('carries on a day a run left unfinished: the next hourly run sends the rest, nobody twice', async () => {
    // three requesters with one match each on a day of their own (the run at 01:05 digests the day before)
    const now = new Date('2001-03-04T01:05:00Z');
    const day = '2001-03-03';
    const buyers: { record: { emailAddress: string } }[] = [];
    for (let i = 0; i < 3; i++) {
      const { buyer, seller, course } = await requestConsumed();
      await setPreferences(buyer.id, { matches: 'daily' });
      const book = await putBook({ ownerId: seller.id, course, name: `Late Digest ${i}` });
      await putDigestEntry(
        { day, userId: buyer.id, bookId: book.id, notificationId: `n${i}`, at: now.toISOString() },
        now,
      );
      buyers.push(buyer);
    }
    const mailed = async () => {
      const counts = [];
      for (const b of buyers) counts.push((await emailsTo(b.record.emailAddress)).length);
      return counts;
    };

    // one entry a page; time runs out at the third check: the day before (empty) took one, then one page
    let checks = 0;
    const unfinishedBefore = recordedMetrics('DigestRunsUnfinished');
    const first = await runDailyDigests({
      now,
      pageSize: 1,
      reserveMs: 1,
      timeLeftMs: () => (checks++ < 3 ? 60_000 : 0),
    });
    expect(first.map((r) => [r.day, r.complete, r.emailsSent])).toEqual([
      ['2001-03-02', true, 0],
      [day, false, 1],
    ]);
    expect((await mailed()).sort()).toEqual([0, 0, 1]);
    // counted for the alarm (infra/ops.yml, digests-unfinished)
    expect(recordedMetrics('DigestRunsUnfinished')).toBe(unfinishedBefore + 1);
    const stopped = await getDigestRun(day);
    expect(stopped.done).toBe(false);
    expect(stopped.after).toEqual(expect.any(String));
    expect((await getDigestRun('2001-03-02')).done).toBe(true);

    // an hour later: carries on from the page it stopped at
    const second = await runDailyDigests({ now: new Date('2001-03-04T02:05:00Z'), pageSize: 1 });
    expect(second.map((r) => [r.day, r.complete, r.emailsSent, r.failed])).toEqual([[day, true, 2, 0]]);
    expect(await mailed()).toEqual([1, 1, 1]);
    expect(await getDigestRun(day)).toEqual({ done: true });
    expect(recordedMetrics('DigestRunsUnfinished')).toBe(unfinishedBefore + 1);

    // and later runs do nothing
    expect(await runDailyDigests({ now: new Date('2001-03-04T03:05:00Z') })).toEqual([]);
    expect(await mailed()).toEqual([1, 1, 1]);
  });
});
