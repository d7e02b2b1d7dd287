import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { handler as getBooksWithStatus } from '#functions/dashboard/get-books-with-status.ts';
import { handler as adminGetPoints } from '#functions/dashboard/get-handover-points.ts';
import { handler as getHandovers } from '#functions/dashboard/get-handovers.ts';
import { handler as answerHandover } from '#functions/user/answer-handover.ts';
import { handler as getHandoverPoints } from '#functions/user/get-handover-points.ts';
import { handler as getOrder } from '#functions/user/get-order.ts';
import { AdminThread } from '#lib/conversations/schemas.ts';
import { cancelPurchase } from '#lib/dashboard/handover.ts';
import { AdminHandoverList, HandOverBookList } from '#lib/dashboard/schemas.ts';
import { listAuditEntries } from '#lib/db/audit.ts';
import { conversationIdOf, listMessages } from '#lib/db/conversations.ts';
import { getHandover } from '#lib/db/handovers.ts';
import { handoverKey, handoverPointKey } from '#lib/db/keys.ts';
import { listNotifications } from '#lib/db/notifications.ts';
import { Handover, HandoverPoint, HandoverPointList, RemovedPoint } from '#lib/handover/schemas.ts';
import { OrderWithStatus } from '#lib/orders/schemas.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { seedBook } from '#tests/helpers/books.ts';
import { adminGetConversation } from '#tests/helpers/conversations.ts';
import { ALL_WEEK, proposeAs, putPointAs, removePointAs } from '#tests/helpers/handover.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { seedOrder } from '#tests/helpers/orders.ts';
import { expectError, expectOk, expectRefusal } from '#tests/helpers/schema.ts';
import { commandsOf } from '#tests/helpers/stream.ts';
import { makeUser } from '#tests/helpers/users.ts';

const HOUR = 3600 * 1000;

const stored = async (key: { pk: string; sk: string }) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item;

/** A campus of its own, an admin, a buyer, a seller, a point open all week (UTC) and an order. */
async function scene(hours = ALL_WEEK) {
  const campus = `c${ulid().toLowerCase().slice(-10)}.edu`;
  const admin = await makeUser({ permissionType: 1, firstName: 'Ada', campus });
  const buyer = await makeUser({ firstName: 'Bea', campus });
  const seller = await makeUser({ firstName: 'Sam', campus });
  const res = await putPointAs(admin.token, {
    campus,
    name: 'Library',
    location: 'Front desk',
    timeZone: 'UTC',
    hours,
  });
  const point = expectOk(res, HandoverPoint);
  const order = await seedOrder(buyer.id, [{ sellerId: seller.id }]);
  return { campus, admin, buyer, seller, point, order };
}

const answer = (token: string, body: Record<string, unknown>) =>
  invoke(answerHandover, { method: 'POST', route: '/api/user/answerHandover', token, body });
/** getOrder as `token`'s holder sees the order (200, checked against its schema). */
const orderSeenBy = async (token: string, orderId: string) =>
  expectOk(
    await invoke(getOrder, { route: '/api/user/getOrder/{orderId}', pathParameters: { orderId }, token }),
    OrderWithStatus,
  );
const inHours = (h: number) => new Date(Date.now() + h * HOUR).toISOString();
/** `token`'s holder proposes the scene's point 30 hours from now (201, checked against its schema). */
const proposedIn30h = async (
  token: string,
  s: { order: { id: string }; seller: { id: string }; point: { id: string } },
) =>
  expectOk(
    await proposeAs(token, {
      orderId: s.order.id,
      sellerId: s.seller.id,
      pointId: s.point.id,
      at: inHours(30),
    }),
    Handover,
  );

describe('hand-over points', () => {
  it("lists the caller's campus's points only, and admins create, update and remove them (audited)", async () => {
    const { campus, admin, buyer, point } = await scene();
    const other = await makeUser({ campus: 'elsewhere.edu' });
    const mine = await invoke(getHandoverPoints, {
      route: '/api/user/getHandoverPoints',
      token: buyer.token,
    });
    expect(expectOk(mine, HandoverPointList).map((p) => p.id)).toEqual([point.id]);
    const theirs = await invoke(getHandoverPoints, {
      route: '/api/user/getHandoverPoints',
      token: other.token,
    });
    expect(expectOk(theirs, HandoverPointList).map((p) => p.id)).not.toContain(point.id);

    const updated = await putPointAs(admin.token, {
      pointId: point.id,
      campus,
      name: 'Main library',
      timeZone: 'America/New_York',
      hours: ALL_WEEK,
    });
    expect(expectOk(updated, HandoverPoint)).toMatchObject({
      id: point.id,
      name: 'Main library',
      location: '',
    });
    expect(await stored(handoverPointKey(point.id))).toMatchObject({
      name: 'Main library',
      timeZone: 'America/New_York',
    });

    const removed = await removePointAs(admin.token, point.id);
    expect(expectOk(removed, RemovedPoint)).toEqual({ pointId: point.id, removed: true });
    expect(await stored(handoverPointKey(point.id))).toBeUndefined();
    const again = await removePointAs(admin.token, point.id);
    expectRefusal(again, 404, 'POINT_NOT_FOUND');

    const audit = (await listAuditEntries(100, undefined)).items.filter((e) => e.target.id === point.id);
    expect(audit.map((e) => e.action).sort()).toEqual([
      'putHandoverPoint',
      'putHandoverPoint',
      'removeHandoverPoint',
    ]);
    expect(audit.every((e) => e.actor === admin.id)).toBe(true);
    // the change records every field a student relies on, the hours in words
    const week = [1, 2, 3, 4, 5, 6, 7]
      .map((d) => `${['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'][d - 1]} 00:00-23:59`)
      .join(', ');
    const change = audit.find((e) => e.action === 'putHandoverPoint' && Object.keys(e.before).length > 0);
    expect(change).toMatchObject({
      before: { name: 'Library', campus, location: 'Front desk', timeZone: 'UTC', hours: week },
      after: { name: 'Main library', campus, location: '', timeZone: 'America/New_York', hours: week },
    });
  });

  it('refuses non-admins (403), bad hours, unknown zones and unknown fields (400), an unknown point (404)', async () => {
    const { campus, admin, buyer } = await scene();
    const call = (token: string, body: Record<string, unknown>) => putPointAs(token, body);
    const good = { campus, name: 'Desk', timeZone: 'UTC', hours: ALL_WEEK };
    expect((await call(buyer.token, good)).status).toBe(403);
    for (const bad of [
      { ...good, hours: [{ day: 1, opens: '10:00', closes: '09:00' }] },
      { ...good, hours: [{ day: 8, opens: '09:00', closes: '10:00' }] },
      { ...good, hours: [] },
      { ...good, timeZone: 'Mars/Olympus' },
      { ...good, name: '' },
      { ...good, extra: 1 },
    ]) {
      expect((await call(admin.token, bad)).status).toBe(400);
    }
    expectRefusal(await call(admin.token, { ...good, pointId: ulid() }), 404, 'POINT_NOT_FOUND');
    // the same opening twice, or two that overlap: refused in words, nothing stored
    for (const hours of [
      [
        { day: 6, opens: '10:00', closes: '14:00' },
        { day: 6, opens: '10:00', closes: '14:00' },
      ],
      [
        { day: 2, opens: '09:00', closes: '12:00' },
        { day: 2, opens: '11:00', closes: '15:00' },
      ],
    ]) {
      const res = await call(admin.token, { ...good, name: 'Overlapping desk', hours });
      expect(res.status).toBe(400);
      // on the later row, where the form shows it
      expect(expectError(res.json(), 'VALIDATION_FAILED').details).toContainEqual(
        expect.objectContaining({
          field: 'hours.1',
          message: 'This opening overlaps opening 1 (or is the same): make each day’s openings separate.',
        }),
      );
    }
    const points = expectOk(
      await invoke(adminGetPoints, {
        route: '/api/dashboard/getHandoverPoints',
        token: admin.token,
        query: { campus },
      }),
      HandoverPointList,
    );
    expect(points.map((p) => p.name)).not.toContain('Overlapping desk');
  });

  it('stores the hours by day and time, whatever order they were typed in; touching openings are fine', async () => {
    const { campus, admin } = await scene();
    const res = await putPointAs(admin.token, {
      campus,
      name: 'Sorted desk',
      timeZone: 'UTC',
      hours: [
        { day: 7, opens: '12:00', closes: '16:00' },
        { day: 1, opens: '15:00', closes: '18:00' },
        { day: 1, opens: '09:00', closes: '15:00' },
        { day: 3, opens: '09:00', closes: '10:00' },
      ],
    });
    const saved = expectOk(res, HandoverPoint);
    const sorted = [
      { day: 1, opens: '09:00', closes: '15:00' },
      { day: 1, opens: '15:00', closes: '18:00' },
      { day: 3, opens: '09:00', closes: '10:00' },
      { day: 7, opens: '12:00', closes: '16:00' },
    ];
    expect(saved.hours).toEqual(sorted);
    expect((await stored(handoverPointKey(saved.id)))?.hours).toEqual(sorted);
  });

  it("a point's campus is one domain, any case: stored lower-cased; `all` and a non-domain are 400", async () => {
    const { campus, admin } = await scene();
    const call = (body: Record<string, unknown>) => putPointAs(admin.token, body);
    const good = { name: 'Side door', timeZone: 'UTC', hours: ALL_WEEK };
    const saved = expectOk(await call({ ...good, campus: ` ${campus.toUpperCase()} ` }), HandoverPoint);
    expect(saved.campus).toBe(campus);
    expect(await stored(handoverPointKey(saved.id))).toMatchObject({ campus });
    for (const bad of ['all', 'ALL', 'uni', 'not a campus', '']) {
      const res = await call({ ...good, campus: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body, bad).toContain('Not a campus (a domain such as uni.edu).');
    }
  });
});

describe('GET /api/dashboard/getHandoverPoints', () => {
  const read = (token: string, query: Record<string, string>) =>
    invoke(adminGetPoints, { route: '/api/dashboard/getHandoverPoints', token, query });

  it("gives an admin any one campus's points, by name, in one Query after the sign-in", async () => {
    const { campus, admin, point } = await scene();
    const second = expectOk(
      await putPointAs(admin.token, { campus, name: 'Bookshop', timeZone: 'UTC', hours: ALL_WEEK }),
      HandoverPoint,
    );
    // another campus's admin reads this campus's points: the campus is the query's, not the caller's
    const elsewhere = await makeUser({ permissionType: 1, campus: 'elsewhere.edu' });
    let res: Awaited<ReturnType<typeof read>> | undefined;
    const calls = await commandsOf(async () => {
      res = await read(elsewhere.token, { campus: campus.toUpperCase() });
    });
    expect(expectOk(res as Awaited<ReturnType<typeof read>>, HandoverPointList)).toEqual([
      { ...second, location: '' },
      { ...point, location: 'Front desk' },
    ]);
    // the sign-in's user read, then the campus's points from gsi1
    expect(calls).toEqual(['GetItem USER', 'Query  gsi1']);
    expect(expectOk(await read(elsewhere.token, { campus: 'empty.edu' }), HandoverPointList)).toEqual([]);
  });

  it('refuses students (403), no campus, `all` and unknown parameters (400)', async () => {
    const { campus, buyer, admin } = await scene();
    expect((await read(buyer.token, { campus })).status).toBe(403);
    const bads: Record<string, string>[] = [{}, { campus: 'all' }, { campus: 'x' }, { campus, extra: '1' }];
    for (const bad of bads) {
      expect((await read(admin.token, bad)).status, JSON.stringify(bad)).toBe(400);
    }
  });
});

describe('POST /api/user/proposeHandover and answerHandover', () => {
  it('a buyer proposes, the seller accepts: stored, on the order, in the conversation, both told, on the day view', async () => {
    const { admin, buyer, seller, point, order } = await scene();
    const at = inHours(30);
    const proposed = expectOk(
      await proposeAs(buyer.token, { orderId: order.id, sellerId: seller.id, pointId: point.id, at }),
      Handover,
    );
    expect(proposed).toMatchObject({
      state: 'pending',
      proposedBy: buyer.id,
      at,
      bookIds: [order.books[0]?.id],
    });
    expect(await getHandover(order.id, seller.id)).toMatchObject({ state: 'pending', version: 1 });
    // pending: not on the day index
    expect((await stored(handoverKey(order.id, seller.id)))?.gsi1pk).toBeUndefined();

    // the proposer cannot answer; a stranger cannot see it
    expectRefusal(
      await answer(buyer.token, { proposalId: proposed.proposalId, accept: true }),
      403,
      'OWN_PROPOSAL',
    );
    const stranger = await makeUser();
    expectRefusal(
      await answer(stranger.token, { proposalId: proposed.proposalId, accept: true }),
      404,
      'PROPOSAL_NOT_FOUND',
    );

    const agreed = expectOk(
      await answer(seller.token, { proposalId: proposed.proposalId, accept: true }),
      Handover,
    );
    expect(agreed.state).toBe('agreed');
    // the same answer again is a retry; the other answer is refused
    expect(
      expectOk(await answer(seller.token, { proposalId: proposed.proposalId, accept: true }), Handover).state,
    ).toBe('agreed');
    expectRefusal(
      await answer(seller.token, { proposalId: proposed.proposalId, accept: false }),
      409,
      'ALREADY_ANSWERED',
    );
    const item = await stored(handoverKey(order.id, seller.id));
    expect(item).toMatchObject({ state: 'agreed', version: 2, gsi1pk: `HANDOVERS#${agreed.day}` });

    const seen = await orderSeenBy(buyer.token, order.id);
    expect(seen.handovers).toEqual([agreed]);

    const messages = await listMessages(conversationIdOf(buyer.id, seller.id), 10, undefined);
    expect(messages.items.map((m) => [m.senderId, m.handover?.state])).toEqual([
      [seller.id, 'agreed'],
      [buyer.id, 'pending'],
    ]);
    // the tag carries what the thread shows of the step: no other read for it
    const slot = { at: agreed.at, point: { name: 'Library', location: 'Front desk', timeZone: 'UTC' } };
    expect(messages.items.map((m) => m.handover)).toEqual([
      {
        orderId: order.id,
        proposalId: proposed.proposalId,
        state: 'agreed',
        sellerId: seller.id,
        proposedBy: buyer.id,
        ...slot,
      },
      {
        orderId: order.id,
        proposalId: proposed.proposalId,
        state: 'pending',
        sellerId: seller.id,
        proposedBy: buyer.id,
        ...slot,
      },
    ]);
    const sellerNotes = (await listNotifications(seller.id, 50, undefined)).items.filter(
      (n) => n.kind === 'handover',
    );
    const buyerNotes = (await listNotifications(buyer.id, 50, undefined)).items.filter(
      (n) => n.kind === 'handover',
    );
    expect(sellerNotes.map((n) => n.message).some((m) => m.startsWith('Bea proposed a hand-over'))).toBe(
      true,
    );
    expect(buyerNotes.some((n) => n.message.startsWith('Hand-over agreed') && n.orderId === order.id)).toBe(
      true,
    );
    expect(sellerNotes.some((n) => n.message.startsWith('Hand-over agreed'))).toBe(true);

    const day = await invoke(getHandovers, {
      route: '/api/dashboard/getHandovers',
      token: admin.token,
      query: { day: agreed.day, pointId: point.id },
    });
    const listed = expectOk(day, AdminHandoverList);
    expect(listed.map((h) => h.handover.proposalId)).toEqual([agreed.proposalId]);
    expect(listed[0]).toMatchObject({
      buyer: { id: buyer.id },
      seller: { id: seller.id },
      conversationId: conversationIdOf(buyer.id, seller.id),
    });
    const bookId = listed[0]?.books[0]?.id as string;
    expect(listed[0]?.books).toEqual([{ id: bookId, name: expect.any(String), status: 1, cancelled: false }]);
    expect(
      (await invoke(getHandovers, { route: '/api/dashboard/getHandovers', token: buyer.token })).status,
    ).toBe(403);

    // cancelled after the slot was agreed: still on the day's list (the admins may have planned it), marked
    await cancelPurchase(admin.id, bookId, 'The buyer asked to cancel.');
    const again = expectOk(
      await invoke(getHandovers, {
        route: '/api/dashboard/getHandovers',
        token: admin.token,
        query: { day: agreed.day, pointId: point.id },
      }),
      AdminHandoverList,
    );
    expect(again[0]?.books).toEqual([{ id: bookId, name: expect.any(String), status: 0, cancelled: true }]);
  });

  it('a new proposal replaces a pending one, and makes an agreed one pending again', async () => {
    const { buyer, seller, point, order } = await scene();
    const body = { orderId: order.id, sellerId: seller.id, pointId: point.id };
    const first = expectOk(await proposeAs(buyer.token, { ...body, at: inHours(30) }), Handover);
    const second = expectOk(await proposeAs(seller.token, { ...body, at: inHours(40) }), Handover);
    expect(second.proposalId).not.toBe(first.proposalId);
    expectRefusal(
      await answer(seller.token, { proposalId: first.proposalId, accept: true }),
      409,
      'PROPOSAL_REPLACED',
    );
    expectOk(await answer(buyer.token, { proposalId: second.proposalId, accept: true }), Handover);
    const third = expectOk(await proposeAs(buyer.token, { ...body, at: inHours(50) }), Handover);
    expect(third.state).toBe('pending');
    const item = await stored(handoverKey(order.id, seller.id));
    expect(item).toMatchObject({ state: 'pending', proposalId: third.proposalId, version: 4 });
    expect(item?.gsi1pk).toBeUndefined();
  });

  it('refuses to agree a proposal at a point an admin removed since (409), and stores nothing', async () => {
    const { admin, buyer, seller, point, order } = await scene();
    const proposed = await proposedIn30h(buyer.token, { order, seller, point });
    const removed = await removePointAs(admin.token, point.id);
    expect(removed.status).toBe(200);
    const refused = await answer(seller.token, { proposalId: proposed.proposalId, accept: true });
    expect(expectRefusal(refused, 409, 'POINT_REMOVED').error).toBe(
      `${point.name} is no longer a hand-over point. Propose another time and place.`,
    );
    expect(await stored(handoverKey(order.id, seller.id))).toMatchObject({ state: 'pending', version: 1 });
    // declining it still works: nothing is promised
    expectOk(await answer(seller.token, { proposalId: proposed.proposalId, accept: false }), Handover);
  });

  it("answers 404 for someone else's order, a seller not in it and a point of another campus", async () => {
    const { buyer, seller, point, order } = await scene();
    const stranger = await makeUser({ campus: buyer.record.campus });
    const body = { orderId: order.id, sellerId: seller.id, pointId: point.id, at: inHours(30) };
    expectRefusal(await proposeAs(stranger.token, body), 404, 'ORDER_NOT_FOUND');
    expectRefusal(await proposeAs(buyer.token, { ...body, sellerId: stranger.id }), 404, 'ORDER_NOT_FOUND');
    expectRefusal(await proposeAs(buyer.token, { ...body, orderId: ulid() }), 404, 'ORDER_NOT_FOUND');
    const elsewhere = await scene();
    expectRefusal(
      await proposeAs(buyer.token, { ...body, pointId: elsewhere.point.id }),
      404,
      'POINT_NOT_FOUND',
    );
    expect(await getHandover(order.id, seller.id)).toBeNull();
  });

  it('refuses bad input, a time in the past or too far ahead, and a time outside the hours with 400', async () => {
    // open Mondays 09:00-10:00 UTC only
    const { buyer, seller, point, order } = await scene([{ day: 1, opens: '09:00', closes: '10:00' }]);
    const body = { orderId: order.id, sellerId: seller.id, pointId: point.id };
    const nextMonday = (hour: number) => {
      const d = new Date(Date.now() + 2 * 24 * HOUR);
      d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7));
      d.setUTCHours(hour, 30, 0, 0);
      return d.toISOString();
    };
    for (const bad of [
      {},
      { ...body },
      { ...body, at: 'tomorrow' },
      { ...body, at: nextMonday(9), extra: true },
      { ...body, at: new Date(Date.now() - HOUR).toISOString() },
      { ...body, at: new Date(Date.now() + 61 * 24 * HOUR).toISOString() },
    ]) {
      const res = await proposeAs(buyer.token, bad);
      expect(res.status).toBe(400);
    }
    const closed = await proposeAs(buyer.token, { ...body, at: nextMonday(11) });
    expect(expectRefusal(closed, 400, 'OUTSIDE_HOURS').error).toMatch(/closed at that time/);
    expect(await getHandover(order.id, seller.id)).toBeNull();
    const open = await proposeAs(buyer.token, { ...body, at: nextMonday(9) });
    expect(expectOk(open, Handover).state).toBe('pending');
  });

  it('refuses a proposal when none of the seller\u2019s books waits for its hand-over (409)', async () => {
    const { buyer, seller, point } = await scene();
    const done = await seedOrder(buyer.id, [{ sellerId: seller.id, status: 2 }]);
    const res = await proposeAs(buyer.token, {
      orderId: done.id,
      sellerId: seller.id,
      pointId: point.id,
      at: inHours(30),
    });
    expectRefusal(res, 409, 'NOTHING_TO_HAND_OVER');
  });

  it('answers getOrder with no hand-overs before any proposal', async () => {
    const { buyer, order } = await scene();
    const seen = await orderSeenBy(buyer.token, order.id);
    expect(seen.handovers).toEqual(z.array(Handover).parse([]));
  });

  it("shows each purchase's age and its hand-over in the admins' queue", async () => {
    const { admin, buyer, seller, point, order } = await scene();
    const proposed = await proposedIn30h(seller.token, { order, seller, point });
    const res = await invoke(getBooksWithStatus, {
      route: '/api/dashboard/getBooksWithStatus/{status}',
      pathParameters: { status: '1' },
      query: { limit: '100' },
      token: admin.token,
    });
    const item = expectOk(res, HandOverBookList).find((i) => i.book.id === order.books[0]?.id);
    expect(item).toMatchObject({
      boughtAt: order.createdAt,
      ageDays: 0,
      remindedAt: null,
      handover: { proposalId: proposed.proposalId, state: 'pending', buyerId: buyer.id },
      conversationId: conversationIdOf(buyer.id, seller.id),
    });

    // the link opens the pair's thread (the proposal is a message in it), and the read is audited
    const thread = await adminGetConversation(admin.token, item?.conversationId ?? '');
    const read = expectOk(thread, AdminThread);
    expect(read.participants.map((p) => p.id).sort()).toEqual([buyer.id, seller.id].sort());
    expect(read.messages.map((m) => [m.senderId, m.handover?.proposalId])).toEqual([
      [seller.id, proposed.proposalId],
    ]);
    const audit = await listAuditEntries(100, undefined);
    expect(
      audit.items.some(
        (a) =>
          a.action === 'readConversation' && a.actor === admin.id && a.target.id === item?.conversationId,
      ),
    ).toBe(true);
  });

  it('gives no conversation for a book nobody bought', async () => {
    const { admin, seller } = await scene();
    // dated long ago, so it leads the queue (oldest listing first) however many books the table holds
    const book = await seedBook(seller.id, { status: 1, date: '2000-01-01T00:00:00.000Z' });
    const res = await invoke(getBooksWithStatus, {
      route: '/api/dashboard/getBooksWithStatus/{status}',
      pathParameters: { status: '1' },
      query: { limit: '100' },
      token: admin.token,
    });
    const item = expectOk(res, HandOverBookList).find((i) => i.book.id === book.id);
    expect(item).toMatchObject({ buyer: null, conversationId: null });
  });
});
