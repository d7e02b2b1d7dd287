import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type NotificationRecord, putNotificationOnce } from '#lib/db/notifications.ts';
import { notificationId } from '#lib/notifications/notify.ts';
import { MarkReadResult } from '#lib/notifications/service.ts';
import { getNotifications, markRead, notifications } from '#tests/helpers/matching.ts';
import { expectEnvelope, expectOk, expectRefusal } from '#tests/helpers/schema.ts';
import { makeUser } from '#tests/helpers/users.ts';

/** Stores `count` notifications for a user, one minute apart, the newest last; returns their ids. */
async function seedNotifications(
  userId: string,
  count: number,
  start = Date.now() - 3_600_000,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const n: NotificationRecord = {
      type: 'notification',
      id: notificationId(userId, `seed#${i}#${start}`),
      userId,
      kind: 'sold',
      message: `Notification ${i}`,
      bookId: `book-${i}`,
      date: new Date(start + i * 60_000).toISOString(),
      read: false,
      emailState: 'none',
    };
    await putNotificationOnce(n);
    ids.push(n.id);
  }
  return ids;
}

describe('GET /api/user/getNotifications', () => {
  it('pages the caller’s notifications newest first with a cursor, each with a read flag', async () => {
    const user = await makeUser();
    const ids = await seedNotifications(user.id, 5);
    const first = await notifications(user.token, { limit: '2' });
    expect(first.items.map((n) => n.id)).toEqual([ids[4], ids[3]]);
    expect(first.items[0]).toEqual({
      id: ids[4],
      message: 'Notification 4',
      date: expect.any(String),
      read: false,
      kind: 'sold',
      bookId: 'book-4',
      link: '/orders',
    });
    expect(first.next).toEqual(expect.any(String));
    const second = await notifications(user.token, { limit: '2', cursor: String(first.next) });
    expect(second.items.map((n) => n.id)).toEqual([ids[2], ids[1]]);
    const third = await notifications(user.token, { limit: '2', cursor: String(second.next) });
    expect(third.items.map((n) => n.id)).toEqual([ids[0]]);
    expect(third.next).toBeNull();
  });

  it("never shows another user's notifications, and refuses a cursor into them with 400", async () => {
    const alice = await makeUser();
    const bob = await makeUser();
    await seedNotifications(alice.id, 3);
    expect((await notifications(bob.token)).items).toEqual([]);
    const aliceCursor = (await notifications(alice.token, { limit: '1' })).next;
    const res = await getNotifications(bob.token, { cursor: String(aliceCursor) });
    expectRefusal(res, 400, 'VALIDATION_FAILED');
  });

  it.each([
    ['a limit of 0', { limit: '0' }],
    ['a limit over 100', { limit: '101' }],
    ['a non-numeric limit', { limit: 'ten' }],
    ['a garbage cursor', { cursor: 'not-a-cursor' }],
    ['an unknown parameter', { all: 'true' }],
  ])('refuses %s with 400', async (_name, query) => {
    const user = await makeUser();
    const res = await getNotifications(user.token, query);
    expectRefusal(res, 400, 'VALIDATION_FAILED');
  });

  it('needs a token', async () => {
    expect((await getNotifications('')).status).toBe(401);
  });

  it('links each notification to the page it talks about (issue 32, item 3)', async () => {
    const user = await makeUser();
    const at = Date.now() - 60_000;
    const kinds: [Partial<NotificationRecord>, string][] = [
      [{ kind: 'match', bookId: 'b 1' }, '/books/b%201'],
      [{ kind: 'saved', bookId: 'b2' }, '/books/b2'],
      [{ kind: 'message', bookId: 'b3', conversationId: 'c1' }, '/messages/c1'],
      [{ kind: 'handover', bookId: 'b4', orderId: 'o1' }, '/orders/o1'],
      [{ kind: 'verified', bookId: 'b5', orderId: 'o2' }, '/orders/o2'],
      [{ kind: 'sold', bookId: 'b6' }, '/orders'],
      [{ kind: 'unlisted', bookId: 'b7' }, '/listings'],
    ];
    for (const [i, [fields]] of kinds.entries())
      await putNotificationOnce({
        type: 'notification',
        id: notificationId(user.id, `links#${i}`),
        userId: user.id,
        kind: 'match',
        message: `Notification ${i}`,
        date: new Date(at + i * 1000).toISOString(),
        read: false,
        emailState: 'none',
        ...fields,
      });
    const items = (await notifications(user.token, { limit: '20' })).items.reverse();
    expect(items.map((n) => [n.kind, n.link])).toEqual(kinds.map(([f, link]) => [f.kind, link]));
  });
});

describe('POST /api/user/markNotificationsRead', () => {
  it('marks the given notifications read and leaves the others unread', async () => {
    const user = await makeUser();
    const ids = await seedNotifications(user.id, 3);
    const res = await markRead(user.token, { ids: [ids[0], ids[2], ids[0]] });
    expect(expectOk(res, MarkReadResult).ids?.sort()).toEqual([ids[0], ids[2]].sort());
    const read = Object.fromEntries((await notifications(user.token)).items.map((n) => [n.id, n.read]));
    expect(read).toEqual({ [String(ids[0])]: true, [String(ids[1])]: false, [String(ids[2])]: true });
  });

  it('marks everything read when no ids are given; later notifications are unread', async () => {
    const user = await makeUser();
    await seedNotifications(user.id, 3);
    const res = await markRead(user.token, {});
    expect(expectEnvelope(res.json(), MarkReadResult)).toEqual({ ids: null, readBefore: expect.any(String) });
    expect((await notifications(user.token)).items.map((n) => n.read)).toEqual([true, true, true]);
    const [later] = await seedNotifications(user.id, 1, Date.now() + 60_000);
    const items = (await notifications(user.token)).items;
    expect(items.map((n) => [n.id === later, n.read])).toEqual([
      [true, false],
      [false, true],
      [false, true],
      [false, true],
    ]);
  });

  it("answers 404 for another user's notification id and changes nothing, not even the caller's", async () => {
    const alice = await makeUser();
    const bob = await makeUser();
    const [aliceId] = await seedNotifications(alice.id, 1);
    const [bobId] = await seedNotifications(bob.id, 1);
    const res = await markRead(bob.token, { ids: [bobId, aliceId] });
    expectRefusal(res, 404, 'NOT_FOUND');
    expect((await notifications(alice.token)).items.map((n) => n.read)).toEqual([false]);
    expect((await notifications(bob.token)).items.map((n) => n.read)).toEqual([false]);
  });

  it.each([
    ['an empty id list', { ids: [] }],
    ['more than 100 ids', { ids: Array.from({ length: 101 }, (_, i) => `id${i}`) }],
    ['a read field', { ids: ['x'], read: false }],
  ])('refuses %s with 400', async (_name, body) => {
    const user = await makeUser();
    const res = await markRead(user.token, body);
    expectRefusal(res, 400, 'VALIDATION_FAILED');
  });

  it('answers with the envelope of its route', async () => {
    const user = await makeUser();
    const res = await markRead(user.token, {});
    expect(expectEnvelope(res.json(), z.unknown())).toBeTruthy();
    expect(res.json<{ method: string }>().method).toBe('POST /api/user/markNotificationsRead');
  });
});
