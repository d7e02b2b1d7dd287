import { beforeAll, describe, expect, it } from 'vitest';
import { handler as cancelPurchase } from '#functions/dashboard/cancel-purchase.ts';
import { handler as confirmBook } from '#functions/dashboard/confirm-book.ts';
import { handler as getAuditLog } from '#functions/dashboard/get-audit-log.ts';
import { handler as setBookPaid } from '#functions/dashboard/set-book-paid.ts';
import { processors } from '#functions/streams/processors.ts';
import { type AuditEntry, AuditLog, MovedBook } from '#lib/dashboard/schemas.ts';
import { listingIndexMove, relistCancelledPurchase } from '#lib/db/books.ts';
import { getGlobalStats } from '#lib/db/counters.ts';
import { bookIndexes, bookKey, listingSortKey, orderKey, userStatsKey } from '#lib/db/keys.ts';
import { listNotifications } from '#lib/db/notifications.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { suspendUser } from '#lib/moderation/suspension.ts';
import { consume } from '#lib/streams/consume.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { TransactionRefused } from '#lib/table/transact.ts';
import { makeBook, seedBook } from '#tests/helpers/books.ts';
import { addToCart, checkout } from '#tests/helpers/cart.ts';
import { invoke, makeContext } from '#tests/helpers/lambda.ts';
import { seedOrder } from '#tests/helpers/orders.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { asEvent, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

type Action = 'confirmBook' | 'setBookPaid' | 'cancelPurchase';
const handlers = { confirmBook, setBookPaid, cancelPurchase };
const VALID: Record<Action, { from: number[]; to: number }> = {
  confirmBook: { from: [1], to: 2 },
  setBookPaid: { from: [2], to: 3 },
  cancelPurchase: { from: [1, 2], to: 0 },
};
const ALL_STATUSES = [0, 1, 2, 3, 5] as const;

let admin: TestUser;
let seller: TestUser;
let buyer: TestUser;

beforeAll(async () => {
  admin = await makeUser({ permissionType: 1, firstName: 'Grace' });
  seller = await makeUser({ firstName: 'Sam' });
  buyer = await makeUser({ firstName: 'Bea' });
});

const act = (action: Action, body: Record<string, unknown>, token = admin.token) =>
  invoke(handlers[action], { method: 'POST', route: `/api/dashboard/${action}`, token, body });
const bodyFor = (action: Action, bookId: string) =>
  action === 'cancelPurchase' ? { bookId, reason: 'The book was damaged.' } : { bookId };

const getItem = async (key: { pk: string; sk: string }) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item ?? {};
const counters = async () => ({
  global: await getGlobalStats(),
  seller: await getItem(userStatsKey(seller.id)),
  buyer: await getItem(userStatsKey(buyer.id)),
});
const delta = (after: Record<string, unknown>, before: Record<string, unknown>, name: string) =>
  Number(after[name] ?? 0) - Number(before[name] ?? 0);

/** A book of `seller` in `status`, bought by `buyer` in an order when status is 1..3. */
async function bookIn(status: (typeof ALL_STATUSES)[number], price = 30): Promise<BookRecord> {
  if (status >= 1 && status <= 3) {
    const order = await seedOrder(buyer.id, [{ sellerId: seller.id, price, status: status as 1 | 2 | 3 }]);
    return order.books[0] as BookRecord;
  }
  return seedBook(seller.id, { status, price });
}

async function auditFor(bookId: string): Promise<AuditEntry[]> {
  const res = await invoke(getAuditLog, {
    route: '/api/dashboard/getAuditLog',
    token: admin.token,
    query: { limit: '100' },
  });
  return expectEnvelope(res.json(), AuditLog).filter((e) => e.target.id === bookId);
}

describe('every hand-over move from every status', () => {
  for (const action of Object.keys(VALID) as Action[]) {
    for (const status of ALL_STATUSES) {
      const valid = VALID[action].from.includes(status);
      it(`${valid ? 'allows' : 'refuses with 409'} ${action} on a book with status ${status}`, async () => {
        const book = await bookIn(status);
        const res = await act(action, bodyFor(action, book.id));
        const stored = await getItem(bookKey(book.id));
        if (valid) {
          expect(res.status).toBe(200);
          const moved = expectEnvelope(res.json(), MovedBook);
          expect(moved.status).toBe(VALID[action].to);
          expect(stored.status).toBe(VALID[action].to);
          // a relisted book is back in its shard of the listing of every campus
          expect(stored.gsi1pk).toBe(bookIndexes({ ...book, status: VALID[action].to }).gsi1pk);
        } else {
          expect(res.status).toBe(409);
          expect(expectError(res.json(), 'WRONG_STATUS').details?.[0]).toMatchObject({ status });
          expect(stored.status).toBe(status);
          expect(await auditFor(book.id)).toEqual([]);
        }
      });
    }
  }

  it('answers 404 for a book that does not exist', async () => {
    for (const action of Object.keys(VALID) as Action[]) {
      const res = await act(action, bodyFor(action, '01JUNKNOWNBOOK0000000000000'));
      expect(res.status).toBe(404);
      expectError(res.json(), 'NOT_FOUND');
    }
  });

  it('refuses bodies that try to set other fields, and a cancellation without a reason', async () => {
    const book = await bookIn(1);
    for (const body of [{ bookId: book.id, status: 3 }, { bookId: book.id, buyer: 'x' }, {}]) {
      expect((await act('confirmBook', body)).status).toBe(400);
    }
    expect((await act('cancelPurchase', { bookId: book.id })).status).toBe(400);
    expect((await act('cancelPurchase', { bookId: book.id, reason: '   ' })).status).toBe(400);
    expect((await getItem(bookKey(book.id))).status).toBe(1);
  });
});

describe('what each move writes', () => {
  it('confirmBook moves 1 -> 2, counts it, and audits who, what, when, before and after', async () => {
    const book = await bookIn(1);
    const before = await counters();
    const started = new Date().toISOString();
    const res = await act('confirmBook', { bookId: book.id });
    const moved = expectEnvelope(res.json(), MovedBook);
    expect(moved).toMatchObject({ id: book.id, status: 2, buyer: { id: buyer.id } });
    const after = await counters();
    expect(delta(after.global, before.global, 'books_s1')).toBe(-1);
    expect(delta(after.global, before.global, 'books_s2')).toBe(1);
    expect(delta(after.seller, before.seller, 'moneyMade')).toBe(0);
    const [entry, ...more] = await auditFor(book.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      actor: admin.id,
      action: 'confirmBook',
      target: { kind: 'book', id: book.id },
      before: { status: 1 },
      after: { status: 2 },
      reason: null,
    });
    expect(entry?.at && entry.at >= started).toBe(true);
  });

  it("setBookPaid moves 2 -> 3 and adds the price to the seller's money made", async () => {
    const book = await bookIn(2, 12.34);
    const before = await counters();
    const res = await act('setBookPaid', { bookId: book.id });
    expect(expectEnvelope(res.json(), MovedBook).status).toBe(3);
    const after = await counters();
    expect(delta(after.seller, before.seller, 'moneyMade')).toBe(1234);
    expect(delta(after.global, before.global, 'books_s2')).toBe(-1);
    expect(delta(after.global, before.global, 'books_s3')).toBe(1);
    expect(await auditFor(book.id)).toMatchObject([
      { actor: admin.id, action: 'setBookPaid', before: { status: 2 }, after: { status: 3 } },
    ]);
  });

  for (const status of [1, 2] as const) {
    it(`cancelPurchase from status ${status} relists the book, undoes the sale's counters and marks the order`, async () => {
      const book = await bookIn(status, 20);
      const before = await counters();
      const res = await act('cancelPurchase', { bookId: book.id, reason: 'Buyer never showed up.' });
      const moved = expectEnvelope(res.json(), MovedBook);
      expect(moved.status).toBe(0);
      expect(moved.buyer).toBeUndefined();
      expect(moved.date > book.date).toBe(true);

      const stored = await getItem(bookKey(book.id));
      expect(stored).toMatchObject({
        status: 0,
        ...listingIndexMove({ ...book, status: 0, date: moved.date }).set,
        date: moved.date,
      });
      for (const gone of ['buyerId', 'boughtAt', 'orderId', 'gsi3pk', 'gsi3sk'])
        expect(stored).not.toHaveProperty(gone);
      // back in the listing, ordered by its new date
      expect(stored.gsi1sk).toBe(listingSortKey(moved.date, book.id));

      const order = await getItem(orderKey(String(book.orderId)));
      expect(order.cancelledBookIds).toEqual(new Set([book.id]));

      const after = await counters();
      expect(delta(after.global, before.global, `books_s${status}`)).toBe(-1);
      expect(delta(after.global, before.global, 'books_s0')).toBe(1);
      expect(delta(after.global, before.global, 'grossSales')).toBe(-2000);
      expect(delta(after.global, before.global, 'feesEarned')).toBe(-100);
      expect(delta(after.buyer, before.buyer, 'booksBought')).toBe(-1);
      expect(delta(after.seller, before.seller, 'booksSold')).toBe(-1);
      expect(delta(after.seller, before.seller, 'activeListings')).toBe(1);

      expect(await auditFor(book.id)).toMatchObject([
        {
          actor: admin.id,
          action: 'cancelPurchase',
          before: { status, buyerId: buyer.id, orderId: book.orderId },
          after: { status: 0, buyerId: null, orderId: null },
          reason: 'Buyer never showed up.',
        },
      ]);
    });
  }

  it('leaves the notifications to the stream: seller and buyer each hear of a cancellation once', async () => {
    const reader = new StreamReader();
    await reader.skipToEnd();
    const book = await bookIn(2);
    expect((await act('cancelPurchase', { bookId: book.id, reason: 'Damaged.' })).status).toBe(200);
    const records = await reader.next();
    for (let delivery = 0; delivery < 2; delivery++) {
      expect((await consume(asEvent(records), makeContext(), processors)).batchItemFailures).toEqual([]);
    }
    for (const who of [seller, buyer]) {
      const { items } = await listNotifications(who.id, 100, undefined);
      expect(items.filter((n) => n.bookId === book.id).map((n) => n.kind)).toEqual(['cancelled']);
    }
  });

  it("cancelPurchase of a suspended seller's book leaves it unlisted, and says so to both sides", async () => {
    const suspendedSeller = await makeUser({ firstName: 'Sid' });
    const order = await seedOrder(buyer.id, [{ sellerId: suspendedSeller.id, price: 20, status: 2 }]);
    const book = order.books[0] as BookRecord;
    await suspendUser(
      { userId: admin.id, permissionType: 1 },
      { userId: suspendedSeller.id, reason: 'Fraud.' },
    );
    const reader = new StreamReader();
    await reader.skipToEnd();
    const sellerStats = await getItem(userStatsKey(suspendedSeller.id));

    const res = await act('cancelPurchase', { bookId: book.id, reason: 'Seller suspended.' });
    expect(res.status).toBe(200);
    expect(expectEnvelope(res.json(), MovedBook).status).toBe(5);
    const stored = await getItem(bookKey(book.id));
    expect(stored.status).toBe(5);
    expect(stored.gsi1pk).toBe(bookIndexes({ ...book, status: 5 }).gsi1pk);
    expect(stored).not.toHaveProperty('buyerId');
    // nobody can buy it again
    const other = await makeUser();
    expect((await addToCart(other.token, book.id)).status).toBe(409);
    expect(delta(await getItem(userStatsKey(suspendedSeller.id)), sellerStats, 'activeListings')).toBe(0);
    expect(await auditFor(book.id)).toMatchObject([
      { action: 'cancelPurchase', before: { status: 2 }, after: { status: 5 }, reason: 'Seller suspended.' },
    ]);

    expect(
      (await consume(asEvent(await reader.next()), makeContext(), processors)).batchItemFailures,
    ).toEqual([]);
    const told = async (userId: string) =>
      (await listNotifications(userId, 100, undefined)).items.filter((n) => n.bookId === book.id);
    expect((await told(suspendedSeller.id)).map((n) => [n.kind, n.message])).toEqual([
      ['cancelled', expect.stringMatching(/was cancelled; it stays unlisted\. Reason: Seller suspended\.$/)],
    ]);
    expect((await told(buyer.id)).map((n) => [n.kind, n.message])).toEqual([
      [
        'cancelled',
        expect.stringMatching(
          /was cancelled\. The payment taken for it is refunded\. Reason: Seller suspended\.$/,
        ),
      ],
    ]);
  });

  it('a relist refuses, writing nothing, when the seller was suspended after the read', async () => {
    const lateSeller = await makeUser({ firstName: 'Lee' });
    const order = await seedOrder(buyer.id, [{ sellerId: lateSeller.id, price: 20, status: 1 }]);
    const book = order.books[0] as BookRecord;
    await suspendUser({ userId: admin.id, permissionType: 1 }, { userId: lateSeller.id, reason: 'Fraud.' });
    const stamp = { actor: admin.id, at: new Date().toISOString(), reason: 'Test.' };
    // read as not suspended: the transaction's check on the seller refuses it
    await expect(relistCancelledPurchase(book, 100, stamp, false)).rejects.toBeInstanceOf(TransactionRefused);
    expect(await getItem(bookKey(book.id))).toMatchObject({ status: 1, buyerId: buyer.id });
    expect(await auditFor(book.id)).toEqual([]);
  });

  it('writes nothing when the order a cancelled book points at is missing', async () => {
    const book = await seedBook(seller.id, {
      status: 1,
      buyerId: buyer.id,
      boughtAt: new Date().toISOString(),
      orderId: 'NOSUCHORDER',
    });
    const before = await counters();
    const res = await act('cancelPurchase', { bookId: book.id, reason: 'Test.' });
    expect(res.status).toBe(409);
    expectError(res.json(), 'CONCURRENT_CHANGE');
    expect(await getItem(bookKey(book.id))).toMatchObject({ status: 1, buyerId: buyer.id });
    expect(await counters()).toEqual(before);
    expect(await auditFor(book.id)).toEqual([]);
  });

  it('a real checkout followed by cancelPurchase puts every counter back where it was', async () => {
    const before = await counters();
    const book = await makeBook(seller, { price: 19.99 });
    const listed = await counters();
    expect((await addToCart(buyer.token, book.id)).status).toBe(200);
    expect((await checkout(buyer.token)).status).toBe(201);
    const res = await act('cancelPurchase', { bookId: book.id, reason: 'Changed their mind.' });
    expect(res.status).toBe(200);
    const after = await counters();
    for (const name of ['books_s0', 'books_s1', 'grossSales', 'feesEarned']) {
      expect(delta(after.global, listed.global, name), name).toBe(0);
    }
    expect(delta(after.global, before.global, 'totalOrders')).toBe(1);
    for (const name of ['booksSold', 'activeListings'])
      expect(delta(after.seller, listed.seller, name), name).toBe(0);
    expect(delta(after.buyer, listed.buyer, 'booksBought')).toBe(0);
  });

  it('takes back exactly the fee share checkout stored: two $0.10 books earn 1 cent, cancelling both returns 1', async () => {
    const books = [await makeBook(seller, { price: 0.1 }), await makeBook(seller, { price: 0.1 })];
    for (const b of books) expect((await addToCart(buyer.token, b.id)).status).toBe(200);
    const listed = await counters();
    expect((await checkout(buyer.token)).status).toBe(201);
    const bought = await counters();
    expect(delta(bought.global, listed.global, 'feesEarned')).toBe(1);
    expect(delta(bought.global, listed.global, 'grossSales')).toBe(20);
    const shares = await Promise.all(books.map(async (b) => (await getItem(bookKey(b.id))).feeCents));
    expect(shares).toEqual([1, 0]);
    const orderId = String((await getItem(bookKey(books[0]?.id ?? ''))).orderId);
    const order = await getItem(orderKey(orderId));
    expect((order.books as Array<{ feeCents: number }>).map((l) => l.feeCents)).toEqual([1, 0]);

    for (const b of books) {
      expect((await act('cancelPurchase', { bookId: b.id, reason: 'Both returned.' })).status).toBe(200);
      expect(await getItem(bookKey(b.id))).not.toHaveProperty('feeCents');
    }
    const after = await counters();
    expect(delta(after.global, listed.global, 'feesEarned')).toBe(0);
    expect(delta(after.global, listed.global, 'grossSales')).toBe(0);
  });

  it('lets exactly one of two admins racing on the same book move it', async () => {
    const book = await bookIn(1);
    const other = await makeUser({ permissionType: 1 });
    const results = await Promise.all([
      act('confirmBook', { bookId: book.id }),
      act('confirmBook', { bookId: book.id }, other.token),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await auditFor(book.id)).toHaveLength(1);
  });
});

describe('the audit log', () => {
  it('lists entries newest first, a page at a time, with an opaque cursor', async () => {
    const books = [await bookIn(1), await bookIn(1), await bookIn(1)];
    for (const b of books) expect((await act('confirmBook', { bookId: b.id })).status).toBe(200);
    const first = await invoke(getAuditLog, {
      route: '/api/dashboard/getAuditLog',
      token: admin.token,
      query: { limit: '2' },
    });
    const page1 = expectEnvelope(first.json(), AuditLog);
    const next = first.json<{ next: string | null }>().next;
    expect(page1.map((e) => e.target.id)).toEqual([books[2]?.id, books[1]?.id]);
    expect(next).toEqual(expect.any(String));
    const second = await invoke(getAuditLog, {
      route: '/api/dashboard/getAuditLog',
      token: admin.token,
      query: { limit: '2', cursor: String(next) },
    });
    expect(expectEnvelope(second.json(), AuditLog)[0]?.target.id).toBe(books[0]?.id);
  });

  it('refuses a forged or malformed cursor with 400', async () => {
    const forged = Buffer.from(JSON.stringify({ pk: 'USER#x', sk: 'PROFILE' })).toString('base64url');
    for (const cursor of ['not base64 !', forged, 'e30', Buffer.from('[1]').toString('base64url')]) {
      const res = await invoke(getAuditLog, {
        route: '/api/dashboard/getAuditLog',
        token: admin.token,
        query: { cursor },
      });
      expect(res.status, cursor).toBe(400);
    }
  });
});
