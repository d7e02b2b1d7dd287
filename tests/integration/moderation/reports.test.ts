/**
 * Reports: three distinct reporters hide a book everywhere a stranger could see or buy it, until an
 * admin resolves the reports (dismiss brings it back; unlist moves it 0 -> 5 and tells the owner why).
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
import { ReportedBooks } from '#lib/moderation/reports.ts';
import { consume } from '#lib/streams/consume.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBook, readBook } from '#tests/helpers/books.ts';
import { addToCart, checkout, readUserStats } from '#tests/helpers/cart.ts';
import { invoke, makeContext } from '#tests/helpers/lambda.ts';
import { createRequest, notifications, requestBody, userMatches } from '#tests/helpers/matching.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
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
const resolve = (admin: TestUser, bookId: string, action: 'dismiss' | 'unlist', reason?: string) =>
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

/** A listed, indexed and matched book; a requester whose request matches it; a buyer with it in the cart. */
async function scene() {
  const seller = await makeUser();
  const requester = await makeUser();
  const buyer = await makeUser();
  const admin = await makeUser({ permissionType: 1 });
  const reporters = [await makeUser(), await makeUser(), await makeUser()];
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
});
