/**
 * The daily hand-over job (issue 34, items 2 and 5):
 *  - the day before an agreed hand-over, buyer and seller are reminded of it (unless every book of it
 *    was cancelled meanwhile);
 *  - a book still at status 1 (bought) `remindDays` after its purchase without an agreed hand-over
 *    reminds buyer, seller and admins (the admins through the audit log and the queue's
 *    `remindedAt`), once;
 *  - it is cancelled (book back on sale) `cancelDays` after its purchase, unless a hand-over is
 *    agreed for a later time: then 2 days after that slot. The cancel is the admins' own
 *    cancelPurchase (lib/dashboard/handover.ts), so the rules of 1 -> 0 stay in one place; the
 *    audit entry's actor names the job, and buyer and seller are told why.
 * Status-1 books are read from their status index (gsi1 `BOOKS#S1`, lib/db/books.ts
 * `listBoughtBefore`), hand-overs with one BatchGet a page: no Scan. Every step is conditional
 * or has a deterministic notification id, so a second run the same day changes nothing.
 */
import { config } from '#lib/config.ts';
import { getBooks, listBoughtBefore, markStuckPurchaseReminded } from '#lib/db/books.ts';
import { agreedHandoversOfDay, getHandovers, type HandoverRecord } from '#lib/db/handovers.ts';
import { type BookRecord, stillInOrder } from '#lib/db/records.ts';
import { Conflict, NotFound } from '#lib/errors.ts';
import { slotInWords, tellUser } from '#lib/handover/service.ts';
import { localDate } from '#lib/values/hours.ts';
import { cancelPurchase } from './handover.ts';

const DAY_MS = 24 * 3600 * 1000;
/** An agreed slot that passed this long ago without the book changing hands cancels the purchase. */
export const AFTER_SLOT_MS = 2 * DAY_MS;
export const JOB_ACTOR = 'system:handoverJob';
const PAGE = 100;

export interface HandoverJobOptions {
  now: Date;
  remindDays?: number;
  cancelDays?: number;
  /** stop starting pages when less than `reserveMs` is left (Lambda's remaining time) */
  timeLeftMs?: () => number;
  reserveMs?: number;
}

export interface HandoverJobResult {
  slotReminders: number;
  stuckReminders: number;
  cancelled: number;
  complete: boolean;
}

/** What the job does with one bought book now: nothing, remind, or cancel (with why). Pure. */
export function stuckDecision(
  book: Pick<BookRecord, 'boughtAt' | 'stuckRemindedAt'>,
  handover: Pick<HandoverRecord, 'state' | 'at'> | undefined,
  now: Date,
  days: { remind: number; cancel: number },
): { action: 'none' } | { action: 'remind' } | { action: 'cancel'; reason: string } {
  const bought = Date.parse(book.boughtAt ?? '');
  if (Number.isNaN(bought)) return { action: 'none' };
  const agreed = handover?.state === 'agreed' ? Date.parse(handover.at) : null;
  const deadline = bought + days.cancel * DAY_MS;
  if (agreed !== null && agreed + AFTER_SLOT_MS > deadline) {
    if (now.getTime() >= agreed + AFTER_SLOT_MS) {
      return {
        action: 'cancel',
        reason: 'The agreed hand-over passed 2 days ago without the book changing hands.',
      };
    }
    return { action: 'none' };
  }
  if (now.getTime() >= deadline) {
    return {
      action: 'cancel',
      reason: `No hand-over took place within ${days.cancel} days of the purchase.`,
    };
  }
  if (agreed === null && !book.stuckRemindedAt && now.getTime() >= bought + days.remind * DAY_MS) {
    return { action: 'remind' };
  }
  return { action: 'none' };
}

export async function runHandoverJob(options: HandoverJobOptions): Promise<HandoverJobResult> {
  const { now } = options;
  const days = {
    remind: options.remindDays ?? config.HANDOVER_REMIND_DAYS,
    cancel: options.cancelDays ?? config.HANDOVER_CANCEL_DAYS,
  };
  const hasTime = () => !options.timeLeftMs || options.timeLeftMs() > (options.reserveMs ?? 0);
  const result: HandoverJobResult = { slotReminders: 0, stuckReminders: 0, cancelled: 0, complete: true };
  result.slotReminders = await remindTomorrowsSlots(now);

  const cutoff = new Date(now.getTime() - Math.min(days.remind, days.cancel) * DAY_MS).toISOString();
  let after: string | undefined;
  do {
    if (!hasTime()) {
      result.complete = false;
      break;
    }
    const page = await listBoughtBefore(cutoff, PAGE, after);
    const handovers = await getHandovers(
      page.items.flatMap((b) => (b.orderId ? [{ orderId: b.orderId, sellerId: b.ownerId }] : [])),
    );
    for (const book of page.items) {
      const h = book.orderId ? handovers.get(`${book.orderId}_${book.ownerId}`) : undefined;
      const decision = stuckDecision(book, h, now, days);
      if (decision.action === 'remind' && (await remindStuck(book, days.remind, now)))
        result.stuckReminders++;
      if (decision.action === 'cancel' && (await cancelStuck(book, decision.reason, now))) result.cancelled++;
    }
    after = page.next ?? undefined;
  } while (after);
  return result;
}

/** Buyer and seller told (once per purchase), then the mark and its audit entry (once). */
async function remindStuck(book: BookRecord, remindDays: number, now: Date): Promise<boolean> {
  if (!book.buyerId || !book.orderId) return false;
  const message = `"${book.name}" was bought ${remindDays} or more days ago and no hand-over is agreed yet. Propose a time at a hand-over point on the order page.`;
  for (const userId of [book.buyerId, book.ownerId]) {
    await tellUser(userId, `stuck-remind#${book.id}#${book.boughtAt}#${userId}`, book.orderId, message, now);
  }
  return markStuckPurchaseReminded(book, {
    actor: JOB_ACTOR,
    at: now.toISOString(),
    reason: `no agreed hand-over ${remindDays} days after the purchase`,
  });
}

/**
 * The admins' cancelPurchase by the job, with its reason; buyer and seller are told why by the
 * status notifications (lib/notifications/processor.ts reads the book's `cancelReason`), as for
 * an admin's cancel. False when the book moved meanwhile.
 */
async function cancelStuck(book: BookRecord, reason: string, now: Date): Promise<boolean> {
  try {
    await cancelPurchase(JOB_ACTOR, book.id, reason, now);
  } catch (err) {
    // moved on meanwhile (an admin confirmed or cancelled it, or a run before this one did)
    if (err instanceof Conflict || err instanceof NotFound) return false;
    throw err;
  }
  return true;
}

/**
 * Agreed hand-overs whose slot is tomorrow at their point: both sides reminded, once per proposal.
 * The day partitions are dates at the points, so the three dates around tomorrow in UTC are read
 * and each hand-over is kept when its own day is tomorrow in its point's zone.
 */
async function remindTomorrowsSlots(now: Date): Promise<number> {
  const tomorrowUtc = Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`) + DAY_MS;
  const days = [-1, 0, 1].map((d) => new Date(tomorrowUtc + d * DAY_MS).toISOString().slice(0, 10));
  const found = (await Promise.all(days.map(agreedHandoversOfDay)))
    .flat()
    .filter((h) => h.day === localDate(new Date(now.getTime() + DAY_MS), h.point.timeZone));
  // a hand-over whose every book was cancelled (relisted or unlisted) has nothing left to hand over
  const books = await getBooks(found.flatMap((h) => h.bookIds));
  let told = 0;
  for (const h of found) {
    if (!h.bookIds.some((id) => stillInOrder(books.get(id), h.orderId))) continue;
    const message = `Reminder: your hand-over is tomorrow, ${slotInWords(h)}.`;
    for (const userId of [h.buyerId, h.sellerId]) {
      await tellUser(userId, `handover-remind#${h.proposalId}#${userId}`, h.orderId, message, now);
    }
    told++;
  }
  return told;
}
