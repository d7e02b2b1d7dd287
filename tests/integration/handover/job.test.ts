import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { handler as answerHandover } from '#functions/user/answer-handover.ts';
import { cancelPurchase } from '#lib/dashboard/handover.ts';
import { JOB_ACTOR, runHandoverJob, stuckDecision } from '#lib/dashboard/stuck-purchases.ts';
import { listAuditEntries } from '#lib/db/audit.ts';
import { bookKey, orderKey } from '#lib/db/keys.ts';
import { listNotifications } from '#lib/db/notifications.ts';
import { Handover, HandoverPoint } from '#lib/handover/schemas.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { ALL_WEEK, proposeAs, putPointAs } from '#tests/helpers/handover.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { seedOrder } from '#tests/helpers/orders.ts';
import { expectOk } from '#tests/helpers/schema.ts';
import { makeUser } from '#tests/helpers/users.ts';

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

/** 12:00 UTC on the day after `now`'s (UTC) day: a hand-over the job reminds of when run at `now`. */
const noonTomorrow = (now: Date) =>
  new Date(`${new Date(now.getTime() + DAY).toISOString().slice(0, 10)}T12:00:00.000Z`);
const days = { remindDays: 3, cancelDays: 7 };

const stored = async (key: { pk: string; sk: string }) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item;
const notes = async (userId: string) =>
  (await listNotifications(userId, 50, undefined)).items.filter((n) => n.kind === 'handover');
const auditOf = async (bookId: string) =>
  (await listAuditEntries(100, undefined)).items.filter((e) => e.target.id === bookId);

/** A buyer and a seller on a campus with a point open all week (UTC), and a purchase bought now. */
async function purchase() {
  const campus = `j${ulid().toLowerCase().slice(-10)}.edu`;
  const admin = await makeUser({ permissionType: 1, campus });
  const buyer = await makeUser({ firstName: 'Bea', campus });
  const seller = await makeUser({ firstName: 'Sam', campus });
  const point = expectOk(
    await putPointAs(admin.token, { campus, name: 'Library', timeZone: 'UTC', hours: ALL_WEEK }),
    HandoverPoint,
  );
  const order = await seedOrder(buyer.id, [{ sellerId: seller.id }]);
  const book = order.books[0];
  if (!book) throw new Error('no book');
  return { buyer, seller, point, order, book, boughtAt: Date.parse(order.createdAt) };
}

/** The buyer proposes `at`, the seller accepts. */
async function agree(p: Awaited<ReturnType<typeof purchase>>, at: Date) {
  const proposed = expectOk(
    await proposeAs(p.buyer.token, {
      orderId: p.order.id,
      sellerId: p.seller.id,
      pointId: p.point.id,
      at: at.toISOString(),
    }),
    Handover,
  );
  return expectOk(
    await invoke(answerHandover, {
      method: 'POST',
      route: '/api/user/answerHandover',
      token: p.seller.token,
      body: { proposalId: proposed.proposalId, accept: true },
    }),
    Handover,
  );
}

describe('the daily hand-over job', () => {
  it('does nothing before HANDOVER_REMIND_DAYS, then reminds buyer, seller and admins once', async () => {
    const p = await purchase();
    await runHandoverJob({ now: new Date(p.boughtAt + 2 * DAY), ...days });
    expect((await stored(bookKey(p.book.id)))?.stuckRemindedAt).toBeUndefined();

    const now = new Date(p.boughtAt + 3 * DAY + HOUR);
    const first = await runHandoverJob({ now, ...days });
    expect(first.stuckReminders).toBeGreaterThanOrEqual(1);
    const book = await stored(bookKey(p.book.id));
    expect(book).toMatchObject({ status: 1, stuckRemindedAt: now.toISOString() });
    for (const userId of [p.buyer.id, p.seller.id]) {
      const told = await notes(userId);
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ orderId: p.order.id });
      expect(told[0]?.message).toMatch(/no hand-over is agreed yet/);
    }
    const audit = await auditOf(p.book.id);
    expect(audit.map((e) => [e.action, e.actor])).toEqual([['remindStuckPurchase', JOB_ACTOR]]);

    const second = await runHandoverJob({ now, ...days });
    expect(second).toMatchObject({ stuckReminders: 0, cancelled: 0 });
    expect(await auditOf(p.book.id)).toHaveLength(1);
    expect(await notes(p.buyer.id)).toHaveLength(1);
  });

  it('cancels after HANDOVER_CANCEL_DAYS without an agreed hand-over: back on sale, both told why, audited as the job', async () => {
    const p = await purchase();
    const now = new Date(p.boughtAt + 7 * DAY + HOUR);
    await runHandoverJob({ now, ...days });
    const book = await stored(bookKey(p.book.id));
    expect(book).toMatchObject({ status: 0, date: now.toISOString() });
    expect(book?.buyerId).toBeUndefined();
    expect((await stored(orderKey(p.order.id)))?.cancelledBookIds).toEqual(new Set([p.book.id]));
    const cancel = (await auditOf(p.book.id)).find((e) => e.action === 'cancelPurchase');
    expect(cancel).toMatchObject({ actor: JOB_ACTOR, before: { status: 1 }, after: { status: 0 } });
    expect(cancel?.reason).toMatch(/within 7 days/);
    // the reason the stream's status notifications tell both sides (tests/integration/matching/consumer.test.ts)
    expect(book?.cancelReason).toMatch(/within 7 days/);
    // a second run finds nothing to do
    expect(await runHandoverJob({ now, ...days })).toMatchObject({ cancelled: 0, stuckReminders: 0 });
    expect((await auditOf(p.book.id)).filter((e) => e.action === 'cancelPurchase')).toHaveLength(1);
  });

  it('waits for an agreed slot later than the deadline, and cancels 2 days after it', async () => {
    const p = await purchase();
    const slot = new Date(p.boughtAt + 7 * DAY + 12 * HOUR);
    await agree(p, slot);
    // no reminder while a hand-over is agreed, no cancel at the usual deadline
    await runHandoverJob({ now: new Date(p.boughtAt + 4 * DAY), ...days });
    await runHandoverJob({ now: new Date(p.boughtAt + 8 * DAY), ...days });
    await runHandoverJob({ now: new Date(slot.getTime() + 2 * DAY - HOUR), ...days });
    const waiting = await stored(bookKey(p.book.id));
    expect(waiting).toMatchObject({ status: 1 });
    expect(waiting?.stuckRemindedAt).toBeUndefined();

    await runHandoverJob({ now: new Date(slot.getTime() + 2 * DAY + HOUR), ...days });
    expect(await stored(bookKey(p.book.id))).toMatchObject({ status: 0 });
    const cancel = (await auditOf(p.book.id)).find((e) => e.action === 'cancelPurchase');
    expect(cancel?.reason).toMatch(/agreed hand-over passed 2 days ago/);
  });

  it('reminds both sides the day before an agreed hand-over, once', async () => {
    const p = await purchase();
    const now = new Date();
    await agree(p, noonTomorrow(now));
    const first = await runHandoverJob({ now, ...days });
    expect(first.slotReminders).toBeGreaterThanOrEqual(1);
    await runHandoverJob({ now, ...days });
    for (const userId of [p.buyer.id, p.seller.id]) {
      const reminders = (await notes(userId)).filter((n) =>
        n.message.startsWith('Reminder: your hand-over is tomorrow'),
      );
      expect(reminders).toHaveLength(1);
    }
  });

  it('does not remind of an agreed hand-over whose book was cancelled since', async () => {
    const p = await purchase();
    const now = new Date();
    await agree(p, noonTomorrow(now));
    await cancelPurchase('admin-1', p.book.id, 'The buyer asked to cancel.', now);
    await runHandoverJob({ now, ...days });
    for (const userId of [p.buyer.id, p.seller.id]) {
      const reminders = (await notes(userId)).filter((n) =>
        n.message.startsWith('Reminder: your hand-over is tomorrow'),
      );
      expect(reminders).toEqual([]);
    }
  });

  it('decides from the purchase time, the agreed slot and the clock (pure)', () => {
    const bought = Date.parse('2026-01-01T10:00:00.000Z');
    const d = { remind: 3, cancel: 7 };
    const book = { boughtAt: new Date(bought).toISOString() };
    const at = (n: number) => new Date(bought + n * DAY);
    expect(stuckDecision(book, undefined, at(2.9), d).action).toBe('none');
    expect(stuckDecision(book, undefined, at(3), d).action).toBe('remind');
    expect(stuckDecision({ ...book, stuckRemindedAt: 'x' }, undefined, at(4), d).action).toBe('none');
    expect(stuckDecision(book, undefined, at(7), d).action).toBe('cancel');
    const early = { state: 'agreed' as const, at: at(2).toISOString() };
    expect(stuckDecision(book, early, at(5), d).action).toBe('none');
    expect(stuckDecision(book, early, at(7), d).action).toBe('cancel');
    const late = { state: 'agreed' as const, at: at(10).toISOString() };
    expect(stuckDecision(book, late, at(11.9), d).action).toBe('none');
    expect(stuckDecision(book, late, at(12), d).action).toBe('cancel');
    const pending = { state: 'pending' as const, at: at(10).toISOString() };
    expect(stuckDecision(book, pending, at(7), d).action).toBe('cancel');
  });
});
