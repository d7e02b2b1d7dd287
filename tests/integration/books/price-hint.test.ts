/**
 * The price hint: the stream consumer keeps the last sale prices of an ISBN per campus and overall
 * (lib/books/price-hint.ts, in one item per ISBN, one write a sale), and the lookup answers them
 * from 3 sales on, the campus's first, every campus's when the campus has fewer. Records are
 * delivered twice here, as the stream may: a sale must never count twice.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '#functions/books/lookup-isbn.ts';
import { IsbnLookup } from '#lib/books/lookup-schemas.ts';
import { backfillSalePrices, priceHintFor, salePricesProcessor } from '#lib/books/price-hint.ts';
import { bookItem } from '#lib/db/books.ts';
import { bookKey, SALE_PRICES_PREFIX } from '#lib/db/keys.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { getSales, recordSale, type Sale } from '#lib/db/sale-prices.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand, PutCommand } from '#lib/table/commands.ts';
import { measured, startMeasuring, stopMeasuring } from '#lib/table/metrics.ts';
import { makeBook, seedBook, setBookStatus } from '#tests/helpers/books.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectDocumented } from '#tests/helpers/openapi.ts';
import { expectEnvelope } from '#tests/helpers/schema.ts';
import { consumeNew, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser } from '#tests/helpers/users.ts';

const ROUTE = '/api/books/lookupIsbn/{isbn}';

let reader: StreamReader;

beforeEach(async () => {
  reader = new StreamReader();
  await reader.skipToEnd();
});

/** A book of `campus` with this ISBN and price, taken through checkout, verification and payment (0 -> 1 -> 2 -> 3). */
async function sell(
  isbn: string | null,
  campus: string,
  priceCents: number,
  upTo: 2 | 3 = 3,
): Promise<BookRecord> {
  const seller = await makeUser({ campus });
  const buyer = await makeUser({ campus });
  const book = await makeBook(seller, { ISBN: isbn, campus, priceCents });
  const bought = await setBookStatus(book, 1, { buyerId: buyer.id, boughtAt: new Date().toISOString() });
  const verified = await setBookStatus(bought, 2);
  return upTo === 3 ? setBookStatus(verified, 3) : verified;
}

/** The kept sales of an ISBN at a campus, or at every campus (`all`). */
async function salesAt(isbn: string, campus: string): Promise<Sale[]> {
  const kept = await getSales(isbn, campus === 'all' ? null : campus);
  return campus === 'all' ? kept.all : kept.campus;
}

/** Every book record written since the last call, through the whole consumer, delivered twice. */
const deliverTwice = () => consumeNew(reader, 'BOOK#', 2);

/** The price hint a signed-in user of `campus` sees for an ISBN, through the route (schema-checked). */
async function hintSeenAt(campus: string, isbn: string) {
  const user = await makeUser({ campus });
  const res = await invoke(handler, { route: ROUTE, pathParameters: { isbn }, token: user.token });
  expectDocumented(res, 'GET', ROUTE);
  expect(res.status).toBe(200);
  return expectEnvelope(res.json(), IsbnLookup).priceHint;
}

// Each case takes books through checkout and the whole consumer twice: slow on DynamoDB Local.
describe('price hint', { timeout: 90_000 }, () => {
  it('counts each completed sale once per campus and overall, however often its records are delivered', async () => {
    const isbn = '9780262033848';
    const sold = [
      await sell(isbn, 'uni.edu', 4500),
      await sell(isbn, 'uni.edu', 3000),
      await sell(isbn, 'uni.edu', 6000),
    ];
    expect(await deliverTwice()).toBeGreaterThan(0);
    const campus = await salesAt(isbn, 'uni.edu');
    expect(campus.map((s) => s.bookId).sort()).toEqual(sold.map((b) => b.id).sort());
    expect(campus.map((s) => s.cents).sort()).toEqual([3000, 4500, 6000]);
    expect((await salesAt(isbn, 'all')).map((s) => s.bookId).sort()).toEqual(sold.map((b) => b.id).sort());
    expect(await hintSeenAt('uni.edu', isbn)).toEqual({
      count: 3,
      lowCents: 3000,
      highCents: 6000,
      medianCents: 4500,
      scope: 'campus',
    });
  });

  it('gives no hint below 3 sales, and counts no book that is not yet paid or has no ISBN', async () => {
    const isbn = '9780136042594';
    await sell(isbn, 'uni.edu', 2000);
    await sell(isbn, 'other.edu', 2500);
    // bought and verified, not yet delivered and paid: not a completed sale
    await sell(isbn, 'uni.edu', 9900, 2);
    // paid, but without an ISBN: nothing to count it under
    await sell(null, 'uni.edu', 1000);
    await deliverTwice();
    expect((await salesAt(isbn, 'all')).map((s) => s.cents).sort()).toEqual([2000, 2500]);
    expect(await hintSeenAt('uni.edu', isbn)).toBeNull();
    expect(await priceHintFor(isbn, 'other.edu')).toBeNull();
  });

  it("answers every campus's figures when the caller's campus has fewer than 3 sales", async () => {
    const isbn = '9780073523323';
    await sell(isbn, 'a.edu', 1500);
    await sell(isbn, 'b.edu', 2500);
    await sell(isbn, 'b.edu', 3500);
    await sell(isbn, 'b.edu', 4500);
    await deliverTwice();
    expect(await hintSeenAt('a.edu', isbn)).toEqual({
      count: 4,
      lowCents: 1500,
      highCents: 4500,
      medianCents: 3000,
      scope: 'all',
    });
    expect(await hintSeenAt('b.edu', isbn)).toEqual({
      count: 3,
      lowCents: 2500,
      highCents: 4500,
      medianCents: 3500,
      scope: 'campus',
    });
  });

  it('counts a completed sale at its campus and at every campus with one read and ONE write', async () => {
    const isbn = '9780134092669';
    const book = await sell(isbn, 'uni.edu', 5000);
    const change = {
      eventName: 'MODIFY' as const,
      eventId: `one-write-${book.id}`,
      sequenceNumber: '1',
      keys: bookKey(book.id),
      oldImage: { ...bookItem(book), status: 2 },
      newImage: bookItem(book),
    };
    expect(salePricesProcessor.wants(change)).toBe(true);
    startMeasuring();
    try {
      await salePricesProcessor.apply(change);
      expect(measured().operations.map((o) => o.command)).toEqual(['GetItem', 'PutItem']);
      // delivered again: read, nothing to write
      startMeasuring();
      await salePricesProcessor.apply(change);
      expect(measured().operations.map((o) => o.command)).toEqual(['GetItem']);
    } finally {
      stopMeasuring();
    }
    expect((await salesAt(isbn, 'uni.edu')).map((s) => s.bookId)).toEqual([book.id]);
    expect((await salesAt(isbn, 'all')).map((s) => s.bookId)).toEqual([book.id]);
  });

  it('keeps every sale when sales of one ISBN are counted at the same time', async () => {
    const isbn = '9781118063330';
    const sales = Array.from({ length: 5 }, (_, i) => ({
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      bookId: `CONCURRENT${i}`,
      cents: 1000 + i,
    }));
    await Promise.all(sales.map((s) => recordSale(isbn, null, s)));
    expect((await salesAt(isbn, 'all')).map((s) => s.bookId)).toEqual(sales.map((s) => s.bookId));
  });

  it('counts the sales completed before the processor ran with the backfill, once however often it runs', async () => {
    const isbn = '9780815344322';
    const seller = await makeUser({ campus: 'old.edu' });
    const buyer = await makeUser({ campus: 'old.edu' });
    const sold = [];
    for (const priceCents of [1200, 1800, 2400]) {
      sold.push(
        // stored as paid without the stream consumer ever seeing it
        await seedBook(seller.id, {
          ISBN: isbn,
          campus: 'old.edu',
          priceCents,
          status: 3,
          buyerId: buyer.id,
          boughtAt: new Date().toISOString(),
        }),
      );
    }
    expect(await salesAt(isbn, 'old.edu')).toEqual([]);
    // the item's first shape, one per campus and one for every campus, which the backfill replaces
    const firstShape = ['old.edu', 'all'].map((sk) => ({ pk: `${SALE_PRICES_PREFIX}${isbn}`, sk }));
    for (const key of firstShape)
      await db.send(
        new PutCommand({
          TableName: TABLE,
          Item: {
            ...key,
            type: 'salePrices',
            sales: [{ at: '2020-01-01T00:00:00.000Z', bookId: 'OLD', cents: 1 }],
          },
        }),
      );
    expect(await backfillSalePrices(2)).toBeGreaterThanOrEqual(3);
    for (const key of firstShape)
      expect(
        (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item,
      ).toBeUndefined();
    await backfillSalePrices();
    expect((await salesAt(isbn, 'old.edu')).map((s) => s.bookId).sort()).toEqual(
      sold.map((b) => b.id).sort(),
    );
    expect(await priceHintFor(isbn, 'old.edu')).toEqual({
      count: 3,
      lowCents: 1200,
      highCents: 2400,
      medianCents: 1800,
      scope: 'campus',
    });
  });
});
