import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deactivateBooks } from '#functions/dashboard/deactivate-books.ts';
import { handler as scheduledUnlist } from '#functions/scheduled/unlist-stale-books.ts';
import { outboxProcessors } from '#functions/streams/outbox.ts';
import { unlistCutoff } from '#lib/dashboard/rules.ts';
import { DeactivateResult, UnlistPreview } from '#lib/dashboard/schemas.ts';
import { unlistStaleBooks } from '#lib/dashboard/unlisting.ts';
import { countStaleListings } from '#lib/db/books.ts';
import { getGlobalStats } from '#lib/db/counters.ts';
import { AUDIT_PARTITIONS, bookKey, userStatsKey } from '#lib/db/keys.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { daysBefore, seedBook } from '#tests/helpers/books.ts';
import { invoke, makeContext } from '#tests/helpers/lambda.ts';
import { queryPartition } from '#tests/helpers/query.ts';
import { expectEnvelope } from '#tests/helpers/schema.ts';
import { consumeNew, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

const DAY = 86_400_000;
let owner: TestUser;
const stream = new StreamReader();
/** The outbox consumer's half: the notices the runs so far made ready are sent. */
const sendNotices = () => consumeNew(stream, 'OUTBOX#', 1, outboxProcessors);

beforeAll(async () => {
  owner = await makeUser({ permissionType: 2 });
  await stream.skipToEnd();
});

const getItem = async (key: { pk: string; sk: string }) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item ?? {};
const statusOf = async (b: BookRecord) => (await getItem(bookKey(b.id))).status;
/** Every audit entry, from every partition of the log. */
const auditEntries = async (): Promise<Record<string, unknown>[]> => {
  const all: Record<string, unknown>[] = [];
  for (const pk of AUDIT_PARTITIONS) all.push(...(await queryPartition(pk)));
  return all;
};
const auditCount = async () => (await auditEntries()).length;

interface SesMail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string };
}
const mailsTo = async (address: string): Promise<SesMail[]> => {
  const res = await fetch(`${process.env.SES_ENDPOINT}/store`);
  const { emails } = (await res.json()) as { emails: SesMail[] };
  return emails.filter((m) => m.destination.to.includes(address));
};

describe('unlisting stale books with an injected clock', () => {
  it('unlists every status-0 book older than 62 days in pages, e-mails each owner once, and a second run changes nothing', async () => {
    const now = new Date();
    const owners = [await makeUser(), await makeUser(), await makeUser()];
    const stale: BookRecord[] = [];
    for (let i = 0; i < 60; i++) {
      const o = owners[i % 3] as TestUser;
      stale.push(
        await seedBook(o.id, { date: daysBefore(now, 62, 1000 + i * 60_000), name: `Stale book ${i}` }),
      );
    }
    const fresh = await seedBook(owners[0]?.id as string, { date: daysBefore(now, 62, -60_000) });
    const sold = await seedBook(owners[1]?.id as string, {
      date: daysBefore(now, 300),
      status: 1,
      buyerId: owner.id,
    });
    const unlistedAlready = await seedBook(owners[2]?.id as string, {
      date: daysBefore(now, 300),
      status: 5,
    });
    const statsBefore = await getGlobalStats();
    const ownerStatsBefore = await getItem(userStatsKey(owners[0]?.id as string));
    const auditBefore = await auditCount();

    const first = await unlistStaleBooks({ now, actor: 'system:test', pageSize: 24 });
    expect(first).toEqual({ unlisted: 60, complete: true });
    for (const b of stale) expect(await statusOf(b)).toBe(5);
    expect(await statusOf(fresh)).toBe(0);
    expect(await statusOf(sold)).toBe(1);
    expect(await statusOf(unlistedAlready)).toBe(5);
    expect((await getItem(bookKey(stale[0]?.id as string))).gsi1pk).toBe('BOOKS#S5');

    const statsAfter = await getGlobalStats();
    expect(Number(statsAfter.books_s0 ?? 0) - Number(statsBefore.books_s0 ?? 0)).toBe(-60);
    expect(Number(statsAfter.books_s5 ?? 0) - Number(statsBefore.books_s5 ?? 0)).toBe(60);
    const ownerStatsAfter = await getItem(userStatsKey(owners[0]?.id as string));
    expect(Number(ownerStatsAfter.activeListings ?? 0) - Number(ownerStatsBefore.activeListings ?? 0)).toBe(
      -20,
    );
    expect((await auditCount()) - auditBefore).toBe(60);

    // nothing is mailed by the run itself: the outbox consumer sends each owner's notice
    for (const o of owners) expect(await mailsTo(o.record.emailAddress)).toHaveLength(0);
    await sendNotices();
    for (const [i, o] of owners.entries()) {
      const mails = await mailsTo(o.record.emailAddress);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.subject).toBe('20 of your books were unlisted');
      const text = mails[0]?.body.text ?? '';
      for (const b of stale.filter((_, j) => j % 3 === i)) expect(text).toContain(`${b.name} (`);
      expect(text).not.toContain(`${stale[(i + 1) % 3]?.name} (`);
    }

    const second = await unlistStaleBooks({ now, actor: 'system:test', pageSize: 24 });
    expect(second).toEqual({ unlisted: 0, complete: true });
    await sendNotices();
    expect(await getGlobalStats()).toEqual(statsAfter);
    expect(await auditCount()).toBe(auditBefore + 60);
    for (const o of owners) expect(await mailsTo(o.record.emailAddress)).toHaveLength(1);
    expect(await statusOf(fresh)).toBe(0);

    // Two minutes later the book listed 61 days 23:59 ago has crossed the line too.
    const later = new Date(now.getTime() + 2 * 60_000);
    expect(await unlistStaleBooks({ now: later, actor: 'system:test' })).toEqual({
      unlisted: 1,
      complete: true,
    });
    expect(await statusOf(fresh)).toBe(5);
  });

  it('honours olderThanDays and the clock: a book becomes stale only once it is older than the cut-off', async () => {
    const o = await makeUser();
    const now = new Date();
    const book = await seedBook(o.id, { date: daysBefore(now, 10) });
    expect((await unlistStaleBooks({ now, actor: 'system:test', olderThanDays: 11 })).unlisted).toBe(0);
    expect(await statusOf(book)).toBe(0);
    const later = new Date(now.getTime() + 2 * DAY);
    expect((await unlistStaleBooks({ now: later, actor: 'system:test', olderThanDays: 11 })).unlisted).toBe(
      1,
    );
    expect(await statusOf(book)).toBe(5);
  });

  it('stops starting pages when time runs low, and the next run carries on from the oldest listing left', async () => {
    const o = await makeUser();
    const now = new Date();
    const books: BookRecord[] = [];
    for (let i = 0; i < 7; i++) books.push(await seedBook(o.id, { date: daysBefore(now, 100, i * 1000) }));
    let pagesAllowed = 1;
    const timeLeftMs = () => (pagesAllowed-- > 0 ? 60_000 : 0);
    const first = await unlistStaleBooks({ now, actor: 'system:test', pageSize: 3, timeLeftMs });
    expect(first).toEqual({ unlisted: 3, complete: false });
    // Oldest first: the three oldest (largest offsets) went first.
    const statuses = await Promise.all(books.map(statusOf));
    expect(statuses).toEqual([0, 0, 0, 0, 5, 5, 5]);
    const rest = await unlistStaleBooks({ now, actor: 'system:test', pageSize: 3 });
    expect(rest).toEqual({ unlisted: 4, complete: true });
    await sendNotices();
    expect(await mailsTo(o.record.emailAddress)).toHaveLength(2);
  });

  it('keeps its pace: never more books a second than the pace allows, so the audit partition stays cool', async () => {
    const o = await makeUser();
    const now = new Date();
    for (let i = 0; i < 60; i++) await seedBook(o.id, { date: daysBefore(now, 80, i * 1000) });
    // A clock that only moves when the job sleeps: the job must wait 60 books / 40 a second.
    let clock = 0;
    const sleeps: number[] = [];
    const pace = {
      booksPerSecond: 40,
      clock: () => clock,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        clock += ms;
      },
    };
    const run = await unlistStaleBooks({ now, actor: 'system:test', pageSize: 20, pace });
    expect(run).toEqual({ unlisted: 60, complete: true });
    // Pages of 20 at 40 a second: a wait of 500 ms before the 2nd and the 3rd page (and the last, empty, read).
    expect(sleeps.length).toBeGreaterThanOrEqual(2);
    expect(clock).toBeGreaterThanOrEqual(1000);
    expect(clock).toBeLessThanOrEqual(1500);
  });

  it('unlists each book exactly once when two runs overlap', async () => {
    const o = await makeUser();
    const now = new Date();
    const books: BookRecord[] = [];
    for (let i = 0; i < 30; i++) books.push(await seedBook(o.id, { date: daysBefore(now, 70, i * 1000) }));
    const auditBefore = await auditCount();
    const statsBefore = await getGlobalStats();
    const runs = await Promise.all([
      unlistStaleBooks({ now, actor: 'system:a', pageSize: 5 }),
      unlistStaleBooks({ now, actor: 'system:b', pageSize: 5 }),
    ]);
    expect(runs[0].unlisted + runs[1].unlisted).toBe(30);
    expect((await auditCount()) - auditBefore).toBe(30);
    const statsAfter = await getGlobalStats();
    expect(Number(statsAfter.books_s5) - Number(statsBefore.books_s5 ?? 0)).toBe(30);
    for (const b of books) expect(await statusOf(b)).toBe(5);
  });
});

describe('the owner route and the daily schedule', () => {
  it('deactivateBooks unlists with the default of 62 days or the given olderThanDays', async () => {
    const o = await makeUser();
    const now = new Date();
    const old = await seedBook(o.id, { date: daysBefore(now, 63) });
    const week = await seedBook(o.id, { date: daysBefore(now, 7) });
    const call = (body?: unknown) =>
      invoke(deactivateBooks, {
        method: 'POST',
        route: '/api/dashboard/deactivateBooks',
        token: owner.token,
        body,
      });
    expect(expectEnvelope((await call()).json(), DeactivateResult)).toEqual({ unlisted: 1, complete: true });
    expect(await statusOf(old)).toBe(5);
    expect(await statusOf(week)).toBe(0);
    expect(expectEnvelope((await call({ olderThanDays: 5 })).json(), DeactivateResult)).toEqual({
      unlisted: 1,
      complete: true,
    });
    expect(await statusOf(week)).toBe(5);
    for (const body of [{ olderThanDays: 0 }, { olderThanDays: 1.5 }, { olderThanDays: '5' }, { days: 3 }]) {
      expect((await call(body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('the scheduled function applies the same rule with the real clock', async () => {
    const o = await makeUser();
    const old = await seedBook(o.id, { date: daysBefore(new Date(), 90) });
    const result = await scheduledUnlist(
      { 'detail-type': 'Scheduled Event' } as Parameters<typeof scheduledUnlist>[0],
      { ...makeContext(), getRemainingTimeInMillis: () => 900_000 },
    );
    expect(result).toMatchObject({ complete: true });
    expect(result.unlisted).toBeGreaterThanOrEqual(1);
    expect(await statusOf(old)).toBe(5);
    const audit = {
      Items: (await auditEntries()).filter((e) => (e.target as { id?: string })?.id === old.id),
    };
    expect(audit.Items).toMatchObject([
      { actor: 'system:unlistStaleBooks', action: 'unlistBook', target: { kind: 'book', id: old.id } },
    ]);
  });
});

describe('the dry run of deactivateBooks', () => {
  const call = (body: unknown) =>
    invoke(deactivateBooks, {
      method: 'POST',
      route: '/api/dashboard/deactivateBooks',
      token: owner.token,
      body,
    });

  it('answers how many books would be unlisted and the oldest few, and changes nothing', async () => {
    const now = new Date();
    // start from a market with no stale listing
    await unlistStaleBooks({ now, actor: 'system:test' });
    const o = await makeUser();
    const stale: BookRecord[] = [];
    for (let i = 0; i < 7; i++) {
      stale.push(await seedBook(o.id, { date: daysBefore(now, 100 - i), name: `Dry run book ${i}` }));
    }
    const fresh = await seedBook(o.id, { date: daysBefore(now, 10) });
    const statsBefore = await getGlobalStats();
    const auditBefore = await auditCount();
    await sendNotices();
    const mailsBefore = (await mailsTo(o.record.emailAddress)).length;

    const res = await call({ dryRun: true });
    expect(res.status).toBe(200);
    const preview = expectEnvelope(res.json(), UnlistPreview);
    expect(preview.count).toBe(7);
    expect(preview.more).toBe(false);
    expect(Date.parse(preview.cutoff)).toBeLessThanOrEqual(Date.now() - 62 * DAY);
    // the five oldest, oldest first, as books
    expect(preview.sample.map((b) => b.id)).toEqual(stale.slice(0, 5).map((b) => b.id));
    expect(preview.sample[0]).toMatchObject({ name: 'Dry run book 0', status: 0, owner: { id: o.id } });

    // nothing changed: statuses, counters, audit log, e-mail
    for (const b of [...stale, fresh]) expect(await statusOf(b)).toBe(0);
    expect(await getGlobalStats()).toEqual(statsBefore);
    expect(await auditCount()).toBe(auditBefore);
    await sendNotices();
    expect((await mailsTo(o.record.emailAddress)).length).toBe(mailsBefore);

    // a shorter age counts the fresh book too
    expect(expectEnvelope((await call({ dryRun: true, olderThanDays: 5 })).json(), UnlistPreview).count).toBe(
      8,
    );
    // dryRun false is a real run, and it unlists exactly what the preview counted
    expect(expectEnvelope((await call({ dryRun: false })).json(), DeactivateResult)).toEqual({
      unlisted: 7,
      complete: true,
    });
    expect(expectEnvelope((await call({ dryRun: true })).json(), UnlistPreview)).toMatchObject({
      count: 0,
      more: false,
      sample: [],
    });
    expect((await call({ dryRun: 'yes' })).status).toBe(400);
  });

  it('stops counting at the per-shard cap and says there are more', async () => {
    const now = new Date();
    const o = await makeUser();
    for (let i = 0; i < 20; i++) await seedBook(o.id, { date: daysBefore(now, 200, i * 1000) });
    const capped = await countStaleListings(unlistCutoff(now, 62), 1);
    expect(capped.more).toBe(true);
    expect(capped.count).toBeLessThanOrEqual(8);
    expect(capped.count).toBeGreaterThanOrEqual(1);
    const full = await countStaleListings(unlistCutoff(now, 62));
    expect(full).toEqual({ count: 20, more: false });
    await unlistStaleBooks({ now, actor: 'system:test' });
  });
});
