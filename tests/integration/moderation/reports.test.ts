/**
 * Reports: three distinct established people hide a book everywhere a stranger could see or buy it,
 * until an admin resolves the reports (dismiss brings it back; unlist moves it 0 -> 5 and tells the
 * owner why; restore brings it back and takes the weight of those who hid it). A person is counted
 * once whatever their accounts or plus-addresses, a new account's report does not count towards
 * hiding, and an account sends at most 10 reports a day.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as reportBookHandler } from '#functions/books/report-book.ts';
import { handler as getAuditLogHandler } from '#functions/dashboard/get-audit-log.ts';
import { handler as getReportsHandler } from '#functions/dashboard/get-reports.ts';
import { handler as resolveReportHandler } from '#functions/dashboard/resolve-report.ts';
import { processors } from '#functions/streams/processors.ts';
import { handler as getCartItemsHandler } from '#functions/user/get-cart-items.ts';
import { Book } from '#lib/books/schemas.ts';
import { AuditLog } from '#lib/dashboard/schemas.ts';
import { userStatsKey } from '#lib/db/keys.ts';
import { ReportAnswer, ReportedBooks, ResolveAnswer } from '#lib/moderation/reports.ts';
import { consume } from '#lib/streams/consume.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { UpdateCommand } from '#lib/table/commands.ts';
import { deleteAccountCall } from '#tests/helpers/account-calls.ts';
import { ageAccount, createConfirmedUser, twoDaysAgo, uniqueEmail } from '#tests/helpers/accounts.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBook, readBook } from '#tests/helpers/books.ts';
import { addToCart, checkout, readUserStats } from '#tests/helpers/cart.ts';
import { invoke, makeContext } from '#tests/helpers/lambda.ts';
import { createRequest, notifications, requestBody, userMatches } from '#tests/helpers/matching.ts';
import { expectEnvelope, expectError, expectOk, expectRefusal } from '#tests/helpers/schema.ts';
import { asEvent, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

let reader: StreamReader;
beforeEach(async () => {
  reader = new StreamReader();
  await reader.skipToEnd();
});
const runConsumer = async () => {
  const res = await consume(asEvent(await reader.next()), makeContext(), processors);
  expect(res.batchItemFailures).toEqual([]);
};

const report = (user: TestUser, bookId: string, reason = 'spam') =>
  invoke(reportBookHandler, {
    method: 'POST',
    route: '/api/books/reportBook',
    token: user.token,
    body: { bookId, reason },
  });
const resolve = (
  admin: TestUser,
  bookId: string,
  action: 'dismiss' | 'unlist' | 'restore',
  reason?: string,
) =>
  invoke(resolveReportHandler, {
    method: 'POST',
    route: '/api/dashboard/resolveReport',
    token: admin.token,
    body: { bookId, action, ...(reason ? { reason } : {}) },
  });
const idsOf = (res: { json: <T>() => T }) => res.json<{ data: { id: string }[] }>().data.map((b) => b.id);
const cartOf = async (user: TestUser) => {
  const res = await invoke(getCartItemsHandler, { route: '/api/user/getCartItems', token: user.token });
  expect(res.status).toBe(200);
  return res.json<{ data: { items: { id: string; available: boolean }[] } }>().data.items;
};

/** A user whose account is two days old: their reports count towards hiding. */
const established = (overrides: Parameters<typeof makeUser>[0] = {}) =>
  makeUser({ createdAt: twoDaysAgo(), ...overrides });
/** A report that is answered 200 with its schema's body (filed or already filed: the same). */
const reported = async (user: TestUser, bookId: string) =>
  expect(expectOk(await report(user, bookId), ReportAnswer)).toEqual({ bookId, reported: true });
const queueEntry = async (admin: TestUser, bookId: string) => {
  const res = await invoke(getReportsHandler, { route: '/api/dashboard/getReports', token: admin.token });
  return expectOk(res, ReportedBooks).find((i) => i.bookId === bookId);
};

/** A listed, indexed and matched book; a requester whose request matches it; a buyer with it in the cart. */
async function scene() {
  const seller = await makeUser();
  const requester = await makeUser();
  const buyer = await makeUser();
  const admin = await makeUser({ permissionType: 1 });
  const reporters = [await established(), await established(), await established()];
  const body = requestBody();
  await createRequest(requester.token, body);
  const word = body.name.split(' ')[0] as string;
  const book = await makeBook(seller, { name: `${word} Handbook`, course: body.course });
  await runConsumer();
  expect((await addToCart(buyer.token, book.id)).status).toBe(200);
  return { seller, requester, buyer, admin, reporters, book, word };
}

/** What a stranger can see of the book: [listing, public search, the requester's matches]. */
async function visibility(s: Awaited<ReturnType<typeof scene>>) {
  const listing = idsOf(await booksApi.getAllBooks(s.buyer.token, { limit: '100' })).includes(s.book.id);
  const search = idsOf(await booksApi.searchPublic(s.word)).includes(s.book.id);
  const matched = (await userMatches(s.requester.token)).some((m) => m.id === s.book.id);
  return [listing, search, matched];
}

describe('reportBook', () => {
  it('one report per user and book; not one’s own book; an unknown book is 404', async () => {
    const s = await scene();
    expect((await report(s.reporters[0] as TestUser, s.book.id)).status).toBe(200);
    const again = await report(s.reporters[0] as TestUser, s.book.id, 'offensive');
    expect(again.status).toBe(200);
    expect((await readBook(s.book.id))?.reportCount).toBe(1);
    expect((await report(s.seller, s.book.id)).status).toBe(409);
    expect((await report(s.buyer, 'NOSUCHBOOK')).status).toBe(404);
    const bad = await invoke(reportBookHandler, {
      method: 'POST',
      route: '/api/books/reportBook',
      token: s.buyer.token,
      body: { bookId: s.book.id, reason: 'boring' },
    });
    expect(bad.status).toBe(400);
    expect((await readBook(s.book.id))?.reportCount).toBe(1);
  });

  it('three reporters hide the book from listings, search and matches; cart and checkout refuse it; dismiss brings it back', async () => {
    const s = await scene();
    expect(await visibility(s)).toEqual([true, true, true]);
    for (const r of s.reporters.slice(0, 2)) expect((await report(r, s.book.id)).status).toBe(200);
    await runConsumer();
    expect(await visibility(s)).toEqual([true, true, true]); // two are not enough
    expect((await report(s.reporters[2] as TestUser, s.book.id, 'prohibited')).status).toBe(200);
    await runConsumer();
    expect(await readBook(s.book.id)).toMatchObject({ status: 0, reportCount: 3, hidden: true });
    expect(await visibility(s)).toEqual([false, false, false]);
    expect(idsOf(await booksApi.getBooksNoToken(100, 0))).not.toContain(s.book.id);

    // getBook: 404 to strangers (with or without a token), the book to its owner and admins
    const fourth = await makeUser();
    for (const token of [undefined, fourth.token, s.buyer.token]) {
      const res = await booksApi.getBook(s.book.id, token);
      expect(res.status).toBe(404);
      expectError(res.json(), 'BOOK_NOT_FOUND');
    }
    for (const who of [s.seller, s.admin]) {
      const res = await booksApi.getBook(s.book.id, who.token);
      expect(res.status).toBe(200);
      expect(expectEnvelope(res.json(), Book).id).toBe(s.book.id);
    }

    // a fourth user cannot add it; the buyer who had it in the cart sees it unavailable and cannot buy it
    expect((await addToCart(fourth.token, s.book.id)).status).toBe(409);
    expect(await cartOf(s.buyer)).toEqual([expect.objectContaining({ id: s.book.id, available: false })]);
    expect((await checkout(s.buyer.token)).status).toBe(409);
    expect((await readBook(s.book.id))?.status).toBe(0);

    // the moderation queue
    const queue = await invoke(getReportsHandler, {
      route: '/api/dashboard/getReports',
      token: s.admin.token,
    });
    expect(queue.status).toBe(200);
    const items = expectEnvelope(queue.json(), ReportedBooks);
    const entry = items.find((i) => i.bookId === s.book.id);
    expect(entry).toMatchObject({ count: 3, hidden: true });
    expect(entry?.reports.map((r) => r.userId).sort()).toEqual(s.reporters.map((r) => r.id).sort());
    const forbidden = await invoke(getReportsHandler, {
      route: '/api/dashboard/getReports',
      token: s.buyer.token,
    });
    expect(forbidden.status).toBe(403);

    // dismiss: back everywhere
    const res = await resolve(s.admin, s.book.id, 'dismiss');
    expect(res.status).toBe(200);
    await runConsumer();
    const after = await readBook(s.book.id);
    expect(after?.hidden).toBeUndefined();
    expect(after?.reportCount).toBe(0);
    expect(await visibility(s)).toEqual([true, true, true]);
    expect(await cartOf(s.buyer)).toEqual([expect.objectContaining({ id: s.book.id, available: true })]);
    expect((await addToCart(fourth.token, s.book.id)).status).toBe(200);
    expect((await booksApi.getBook(s.book.id)).status).toBe(200);
    const again = expectEnvelope(
      (await invoke(getReportsHandler, { route: '/api/dashboard/getReports', token: s.admin.token })).json(),
      ReportedBooks,
    );
    expect(again.map((i) => i.bookId)).not.toContain(s.book.id);
    // resolving again is a conflict
    expect((await resolve(s.admin, s.book.id, 'dismiss')).status).toBe(409);

    const log = expectEnvelope(
      (
        await invoke(getAuditLogHandler, { route: '/api/dashboard/getAuditLog', token: s.admin.token })
      ).json(),
      AuditLog,
    );
    const actions = log.filter((e) => e.target.id === s.book.id).map((e) => e.action);
    expect(actions.filter((a) => a === 'reportBook')).toHaveLength(3);
    expect(actions).toContain('resolveReport');
  });

  it('unlist moves the book 0 -> 5 with the counters, and the owner is told why', async () => {
    const s = await scene();
    for (const r of s.reporters) expect((await report(r, s.book.id, 'offensive')).status).toBe(200);
    const before = await readUserStats(s.seller.id);
    const res = await resolve(s.admin, s.book.id, 'unlist', 'Offensive comments in the listing.');
    expect(res.status).toBe(200);
    expect(res.json<{ data: unknown }>().data).toEqual({ bookId: s.book.id, action: 'unlist', status: 5 });
    expect(await readBook(s.book.id)).toMatchObject({ status: 5, reportCount: 0 });
    expect((await readUserStats(s.seller.id))?.activeListings).toBe(Number(before?.activeListings) - 1);
    const told = (await notifications(s.seller.token)).items.find((n) => n.kind === 'unlisted');
    expect(told?.message).toContain('Offensive comments in the listing.');
    expect(told?.bookId).toBe(s.book.id);
  });
  it('a new account’s report reaches the admins’ queue but does not count towards hiding', async () => {
    const s = await scene();
    const newcomer = await makeUser(); // created just now
    for (const r of [s.reporters[0] as TestUser, s.reporters[1] as TestUser, newcomer]) {
      await reported(r, s.book.id);
    }
    expect(await readBook(s.book.id)).toMatchObject({ status: 0, reportCount: 3, weightedCount: 2 });
    expect((await readBook(s.book.id))?.hidden).toBeUndefined();
    const entry = await queueEntry(s.admin, s.book.id);
    expect(entry).toMatchObject({ count: 3, hidden: false });
    expect(entry?.reports.find((r) => r.userId === newcomer.id)?.counted).toBe(false);
    // an account with a purchase on record counts from its first day
    const buyerOfOne = await makeUser();
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: userStatsKey(buyerOfOne.id),
        UpdateExpression: 'SET booksBought = :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    await reported(buyerOfOne, s.book.id);
    expect(await readBook(s.book.id)).toMatchObject({ reportCount: 4, weightedCount: 3, hidden: true });
  });

  it('three plus-addresses of one mailbox are one reporter and do not hide a book', async () => {
    const s = await scene();
    const [local, domain] = uniqueEmail('mallory').split('@');
    for (const n of [1, 2, 3]) {
      const address = `${local}+${n}@${domain}`;
      const sock = await established({ emailAddress: address, emailNormalised: address });
      await reported(sock, s.book.id);
    }
    const book = await readBook(s.book.id);
    expect(book).toMatchObject({ status: 0, reportCount: 1, weightedCount: 1 });
    expect(book?.hidden).toBeUndefined();
  });

  it('report, delete the account, sign up again, report again: three rounds are still one reporter', async () => {
    const s = await scene();
    const address = uniqueEmail('mallory');
    for (let round = 0; round < 3; round++) {
      const account = await createConfirmedUser({ emailAddress: address });
      await ageAccount(account.record.id);
      await reported({ id: account.record.id, token: account.token, record: account.record }, s.book.id);
      const gone = await deleteAccountCall(account.token, account.password);
      expect(gone.status).toBe(200);
    }
    const book = await readBook(s.book.id);
    expect(book).toMatchObject({ status: 0, reportCount: 1, weightedCount: 1 });
    expect(book?.hidden).toBeUndefined();
    expect((await booksApi.getBook(s.book.id)).status).toBe(200);
  });

  it('answers the 11th report of a day with 429 and Retry-After, and files nothing', async () => {
    const s = await scene();
    const reporter = await established();
    const books = [];
    for (let i = 0; i < 11; i++) books.push(await makeBook(s.seller));
    for (const b of books.slice(0, 10)) await reported(reporter, b.id);
    const eleventh = await report(reporter, (books[10] as { id: string }).id);
    expectRefusal(eleventh, 429, 'TOO_MANY_REQUESTS');
    const retryAfter = Number(eleventh.headers['Retry-After'] ?? eleventh.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect((await readBook((books[10] as { id: string }).id))?.reportCount).toBeUndefined();
    expect((await readBook((books[9] as { id: string }).id))?.reportCount).toBe(1);
  });

  it('restore brings a hidden book back in one action, and those who hid it lose their weight for 30 days', async () => {
    const s = await scene();
    // only a hidden book can be restored
    await reported(s.reporters[0] as TestUser, s.book.id);
    expectRefusal(await resolve(s.admin, s.book.id, 'restore'), 409, 'NOT_HIDDEN');
    for (const r of s.reporters.slice(1)) await reported(r, s.book.id);
    await runConsumer();
    expect(await readBook(s.book.id)).toMatchObject({ hidden: true, reportCount: 3 });

    const restored = expectOk(await resolve(s.admin, s.book.id, 'restore'), ResolveAnswer);
    expect(restored).toEqual({ bookId: s.book.id, action: 'restore', status: 0 });
    await runConsumer();
    const after = await readBook(s.book.id);
    expect(after).toMatchObject({ status: 0, reportCount: 0, weightedCount: 0 });
    expect(after?.hidden).toBeUndefined();
    expect(await visibility(s)).toEqual([true, true, true]);
    expect((await booksApi.getBook(s.book.id)).status).toBe(200);

    // the same three reporting another book now reach the queue without hiding it
    const other = await makeBook(s.seller);
    for (const r of s.reporters) await reported(r, other.id);
    const otherBook = await readBook(other.id);
    expect(otherBook).toMatchObject({ reportCount: 3, weightedCount: 0 });
    expect(otherBook?.hidden).toBeUndefined();
    expect((await queueEntry(s.admin, other.id))?.reports.map((r) => r.counted)).toEqual([
      false,
      false,
      false,
    ]);
  });
});
