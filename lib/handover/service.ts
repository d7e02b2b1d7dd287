/**
 * Hand-overs buyer and seller agree on (issue 34, item 2): the campus's hand-over points, a slot
 * one side proposes at a point within its opening hours, the other side's answer. One hand-over per
 * seller per order, covering all that seller's books in it. Each step is told to the other side
 * as a message in their conversation and an in-app notification (with its e-mail through the
 * outbox) that opens the order. Rules here; keys and writes in lib/db/handovers.ts. docs/handover.md.
 */
import { ulid } from 'ulid';
import type { Principal } from '#lib/accounts/principal.ts';

import { newAuditRecord } from '#lib/db/audit.ts';
import { getBooks } from '#lib/db/books.ts';
import { appendMessage, conversationIdOf } from '#lib/db/conversations.ts';
import {
  getHandover,
  getHandoverPoint,
  type HandoverPointRecord,
  type HandoverRecord,
  listHandoverPoints,
  putHandoverPoint,
  removeHandoverPoint,
  writeHandover,
} from '#lib/db/handovers.ts';
import { handoverKeyOfSlot } from '#lib/db/keys.ts';
import { getOrderRecord } from '#lib/db/orders.ts';
import { BookStatus, type OrderRecord } from '#lib/db/records.ts';
import { getUserListingInfo } from '#lib/db/users.ts';
import { BadRequest, Conflict, Forbidden, NotFound } from '#lib/errors.ts';
import { logger } from '#lib/logger.ts';
import { appLinks } from '#lib/mail/links.ts';
import { noticeMail } from '#lib/mail/notice.ts';
import { notify } from '#lib/notifications/notify.ts';
import { type Handover, toApiHandover } from '#lib/orders/handover.ts';
import { hoursInWords, isOpenAt, localDate } from '#lib/values/hours.ts';
import type * as z from '#lib/zod.ts';
import type { AnswerBody, HandoverPoint, PointIdBody, ProposeBody, PutPointBody } from './schemas.ts';

/** How far ahead a slot may be proposed. */
export const MAX_DAYS_AHEAD = 60;
const DAY_MS = 24 * 3600 * 1000;

const noSuchOrder = () => new NotFound('No such order.', 'ORDER_NOT_FOUND');
const noSuchProposal = () => new NotFound('No such hand-over proposal.', 'PROPOSAL_NOT_FOUND');

export const toApiPoint = (p: HandoverPointRecord): HandoverPoint => ({
  id: p.id,
  campus: p.campus,
  name: p.name,
  location: p.location,
  timeZone: p.timeZone,
  hours: p.hours,
});

// ----- points ----------------------------------------------------------------------------------

/** A campus's hand-over points, by name (the caller's campus for a student). */
export async function getHandoverPoints(campus: string): Promise<HandoverPoint[]> {
  return (await listHandoverPoints(campus)).map(toApiPoint);
}

const pointSnapshot = (p: HandoverPointRecord) => ({
  name: p.name,
  campus: p.campus,
  location: p.location,
  timeZone: p.timeZone,
  hours: hoursInWords(p.hours),
});

/** putHandoverPoint (admin): a new point, or the whole of an existing one; audited. */
export async function saveHandoverPoint(
  actorId: string,
  body: z.output<typeof PutPointBody>,
  now = new Date(),
): Promise<HandoverPoint> {
  const existing = body.pointId ? await getHandoverPoint(body.pointId) : null;
  if (body.pointId && !existing) throw new NotFound('No such hand-over point.', 'POINT_NOT_FOUND');
  const point: HandoverPointRecord = {
    type: 'handoverPoint',
    id: body.pointId ?? ulid(now.getTime()),
    campus: body.campus,
    name: body.name,
    location: body.location,
    timeZone: body.timeZone,
    hours: body.hours,
    updatedAt: now.toISOString(),
  };
  const audit = newAuditRecord({
    at: now.toISOString(),
    actor: actorId,
    action: 'putHandoverPoint',
    target: { kind: 'handoverPoint', id: point.id },
    // every field a student relies on, so the log shows what changed (hours in words)
    before: existing ? pointSnapshot(existing) : {},
    after: pointSnapshot(point),
    reason: null,
  });
  if (!(await putHandoverPoint(point, !existing, audit))) {
    throw new Conflict('The hand-over point changed meanwhile. Try again.', undefined, 'CONCURRENT_CHANGE');
  }
  return toApiPoint(point);
}

/**
 * removeHandoverPoint (admin): the point goes from its campus's list; audited. Hand-overs already
 * proposed or agreed there keep what they copied of it (name, place, zone).
 */
export async function dropHandoverPoint(
  actorId: string,
  body: z.output<typeof PointIdBody>,
  now = new Date(),
): Promise<{ pointId: string; removed: true }> {
  const existing = await getHandoverPoint(body.pointId);
  if (!existing) throw new NotFound('No such hand-over point.', 'POINT_NOT_FOUND');
  const audit = newAuditRecord({
    at: now.toISOString(),
    actor: actorId,
    action: 'removeHandoverPoint',
    target: { kind: 'handoverPoint', id: existing.id },
    before: { name: existing.name, campus: existing.campus },
    after: {},
    reason: null,
  });
  if (!(await removeHandoverPoint(existing.id, audit))) {
    throw new NotFound('No such hand-over point.', 'POINT_NOT_FOUND');
  }
  return { pointId: existing.id, removed: true };
}

// ----- proposals -------------------------------------------------------------------------------

/**
 * proposeHandover: the buyer or that seller of the order proposes a slot at a point of the
 * caller's campus, in the future (at most MAX_DAYS_AHEAD days) and within the point's hours. It
 * replaces the seller's hand-over of this order whatever its state: a pending proposal is
 * replaced, an agreed or declined one becomes pending again with the new slot (so either side can
 * move an agreed slot, and the other side agrees again). 404 for anyone else and for a seller not
 * in the order; 400 for a slot in the past, too far ahead or outside the hours; 409 when none of the
 * seller's books waits for its hand-over any more.
 */
export async function proposeHandover(
  caller: Principal,
  body: z.output<typeof ProposeBody>,
  now = new Date(),
): Promise<Handover> {
  const order = await getOrderRecord(body.orderId);
  const lines = order?.books.filter((l) => l.sellerId === body.sellerId) ?? [];
  if (!order || lines.length === 0 || (caller.userId !== order.buyerId && caller.userId !== body.sellerId)) {
    throw noSuchOrder();
  }
  const at = new Date(body.at);
  if (at.getTime() <= now.getTime()) throw new BadRequest('The hand-over time must be in the future.');
  if (at.getTime() > now.getTime() + MAX_DAYS_AHEAD * DAY_MS) {
    throw new BadRequest(`Choose a hand-over time within the next ${MAX_DAYS_AHEAD} days.`);
  }
  const [point, books, current] = await Promise.all([
    getHandoverPoint(body.pointId),
    getBooks(lines.map((l) => l.bookId)),
    getHandover(order.id, body.sellerId),
  ]);
  if (!point || point.campus !== caller.campus)
    throw new NotFound('No such hand-over point.', 'POINT_NOT_FOUND');
  if (!isOpenAt(point.hours, point.timeZone, at)) {
    throw new BadRequest(
      `${point.name} is closed at that time. Choose a time within its opening hours.`,
      [{ field: 'at', message: 'outside the opening hours' }],
      'OUTSIDE_HOURS',
    );
  }
  const waiting = lines
    .map((l) => books.get(l.bookId))
    .filter((b) => b?.status === BookStatus.Bought && b.orderId === order.id)
    .map((b) => b?.id as string);
  if (waiting.length === 0) {
    throw new Conflict(
      'None of these books is waiting for its hand-over.',
      undefined,
      'NOTHING_TO_HAND_OVER',
    );
  }
  const next: HandoverRecord = {
    type: 'handover',
    orderId: order.id,
    sellerId: body.sellerId,
    buyerId: order.buyerId,
    proposalId: `${order.id}_${body.sellerId}_${ulid(now.getTime())}`,
    bookIds: waiting,
    point: { id: point.id, name: point.name, location: point.location, timeZone: point.timeZone },
    at: at.toISOString(),
    day: localDate(at, point.timeZone),
    state: 'pending',
    proposedBy: caller.userId,
    proposedAt: now.toISOString(),
    answeredAt: null,
    version: (current?.version ?? 0) + 1,
  };
  if (!(await writeHandover(next, current ? current.version : null))) {
    throw new Conflict(
      'The hand-over changed meanwhile. Reload the order and try again.',
      undefined,
      'CONCURRENT_CHANGE',
    );
  }
  await tell(next, order, caller.userId, now);
  return toApiHandover(next);
}

/**
 * answerHandover: the other side of the current proposal accepts or declines it. 404 for anyone
 * but buyer and seller; 403 for its proposer; 409 for a replaced proposal, an answered one (the same
 * answer again answers 200, a retry) and accepting a slot that has passed.
 */
export async function answerHandover(
  callerId: string,
  body: z.output<typeof AnswerBody>,
  now = new Date(),
): Promise<Handover> {
  const slotKey = handoverKeyOfSlot(body.proposalId.slice(0, body.proposalId.lastIndexOf('_')));
  if (!slotKey) throw noSuchProposal();
  const [orderId, sellerId] = body.proposalId.split('_') as [string, string];
  const h = await getHandover(orderId, sellerId);
  if (!h || (callerId !== h.buyerId && callerId !== h.sellerId)) throw noSuchProposal();
  if (h.proposalId !== body.proposalId) {
    throw new Conflict('This proposal was replaced by a newer one.', undefined, 'PROPOSAL_REPLACED');
  }
  if (callerId === h.proposedBy) {
    throw new Forbidden('You proposed this hand-over; the other side answers it.', 'OWN_PROPOSAL');
  }
  const state = body.accept ? 'agreed' : 'declined';
  if (h.state !== 'pending') {
    if (h.state === state) return toApiHandover(h); // the same answer again: a retry
    throw new Conflict('This proposal was already answered.', undefined, 'ALREADY_ANSWERED');
  }
  if (body.accept && Date.parse(h.at) <= now.getTime()) {
    throw new Conflict('The proposed time has passed. Propose a new one.', undefined, 'SLOT_PASSED');
  }
  // an admin removed the point since it was proposed: nobody staffs it, so it cannot be agreed
  if (body.accept && !(await getHandoverPoint(h.point.id))) {
    throw new Conflict(
      `${h.point.name} is no longer a hand-over point. Propose another time and place.`,
      undefined,
      'POINT_REMOVED',
    );
  }
  const next: HandoverRecord = { ...h, state, answeredAt: now.toISOString(), version: h.version + 1 };
  if (!(await writeHandover(next, h.version))) {
    throw new Conflict(
      'The hand-over changed meanwhile. Reload the order and try again.',
      undefined,
      'CONCURRENT_CHANGE',
    );
  }
  const order = await getOrderRecord(orderId);
  if (order) await tell(next, order, callerId, now);
  return toApiHandover(next);
}

// ----- telling the other side ------------------------------------------------------------------

/** The web app's page of an order (APP_URL; the service's own URL when there is no front end). */
export const orderUrl = appLinks.order;

/**
 * The slot in words at its point's time zone, on the clock the web app writes every time with:
 * "Mon, Nov 30, 2:00 PM (America/New_York)". Pure.
 */
export function slotInWords(h: Pick<HandoverRecord, 'at' | 'point'>): string {
  const when = new Intl.DateTimeFormat('en-US', {
    timeZone: h.point.timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  })
    .format(new Date(h.at))
    // some engines put a narrow no-break space before AM/PM
    .replace('\u202f', ' ');
  return `${when} (${h.point.timeZone}) at ${h.point.name}${h.point.location ? `, ${h.point.location}` : ''}`;
}

/** The notification's words and its e-mail with a link to the order. Pure. */
export const handoverContent = (message: string, orderId: string) => ({
  message,
  email: noticeMail({
    subject: 'Your Campus Books hand-over',
    message,
    linkLabel: 'Open the order',
    link: orderUrl(orderId),
  }),
});

/** Tells one user about a hand-over of an order (in-app and e-mail), once per cause. */
export async function tellUser(userId: string, cause: string, orderId: string, message: string, now: Date) {
  const content = handoverContent(message, orderId);
  await notify(
    { userId, cause, kind: 'handover', orderId, message, email: content.email, category: 'purchases' },
    () => now,
  );
}

/**
 * A step of a hand-over told: a message in the pair's conversation from the one who took it
 * (tagged with the proposal, so the thread can show it as a hand-over), and notifications: a
 * proposal to the other side, an agreement to both, a refusal to the proposer.
 */
async function tell(h: HandoverRecord, order: OrderRecord, actorId: string, now: Date): Promise<void> {
  const otherId = actorId === h.buyerId ? h.sellerId : h.buyerId;
  const sellerName = order.books.find((l) => l.sellerId === h.sellerId)?.sellerFirstName ?? '';
  const buyer = await getUserListingInfo(h.buyerId);
  const names: Record<string, string> = { [h.buyerId]: buyer?.firstName ?? '', [h.sellerId]: sellerName };
  const slot = slotInWords(h);
  const text =
    h.state === 'pending'
      ? `Proposed a hand-over: ${slot}.`
      : h.state === 'agreed'
        ? `Agreed to the hand-over: ${slot}.`
        : `Declined the hand-over proposed for ${slot}.`;
  const outcome = await appendMessage({
    conversationId: conversationIdOf(h.buyerId, h.sellerId),
    sender: { id: actorId, firstName: names[actorId] ?? '' },
    recipient: { id: otherId, firstName: names[otherId] ?? '' },
    message: {
      id: ulid(now.getTime()),
      text,
      at: now.toISOString(),
      handover: {
        orderId: h.orderId,
        proposalId: h.proposalId,
        state: h.state,
        sellerId: h.sellerId,
        proposedBy: h.proposedBy,
        at: h.at,
        point: { name: h.point.name, location: h.point.location, timeZone: h.point.timeZone },
      },
    },
  });
  // A block or a suspension stops messages, not the purchase: the notifications still go.
  if (!outcome.ok) logger.info('hand-over message not written', { why: outcome.why, orderId: h.orderId });
  const who = names[actorId] || 'The other side';
  const cause = (party: string) => `handover#${h.proposalId}#${h.state}#${party}`;
  if (h.state === 'pending') {
    await tellUser(otherId, cause(otherId), h.orderId, `${who} proposed a hand-over: ${slot}.`, now);
  } else if (h.state === 'agreed') {
    for (const userId of [h.buyerId, h.sellerId]) {
      await tellUser(userId, cause(userId), h.orderId, `Hand-over agreed: ${slot}.`, now);
    }
  } else {
    await tellUser(
      otherId,
      cause(otherId),
      h.orderId,
      `${who} declined the hand-over proposed for ${slot}.`,
      now,
    );
  }
}
