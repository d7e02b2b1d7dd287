/**
 * The price hint of the ISBN lookup: what copies of the same ISBN sold for, from completed sales
 * (status 3). The stream consumer keeps, per ISBN, ONE item with the last 50 sale prices at every
 * campus and at each campus (lib/db/sale-prices.ts), one write a sale; the lookup reads it with one
 * GetItem. No Scan, no Query. Shown only from MIN_SALES sales on.
 */

import { listBooksByStatus } from '#lib/db/books.ts';
import { ALL_CAMPUSES, isBookKey } from '#lib/db/keys.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { deleteFirstShapeSales, getSales, recordSale } from '#lib/db/sale-prices.ts';
import type { ChangeProcessor, Item } from '#lib/streams/types.ts';

/** Fewer completed sales than this give no hint (a price from one or two sales says little). */
export const MIN_SALES = 3;

export interface PriceHint {
  /** how many sales the figures are over (the last 50 at most) */
  count: number;
  lowCents: number;
  highCents: number;
  /** the middle price; of an even count, the mean of the two middle ones rounded to the cent */
  medianCents: number;
  /** the caller's campus, or every campus when the campus has fewer than MIN_SALES */
  scope: 'campus' | 'all';
}

/** The figures of a list of prices (cents), or null below MIN_SALES. Pure. */
export function summarisePrices(cents: readonly number[], scope: PriceHint['scope']): PriceHint | null {
  if (cents.length < MIN_SALES) return null;
  const sorted = [...cents].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[mid] as number)
      : Math.round(((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2);
  return {
    count: sorted.length,
    lowCents: sorted[0] as number,
    highCents: sorted.at(-1) as number,
    medianCents: median,
    scope,
  };
}

/**
 * The hint for an ISBN-13 at a campus: the campus's figures from MIN_SALES sales on, else every
 * campus's from MIN_SALES on, else null. One GetItem.
 */
export async function priceHintFor(isbn13: string, campus: string | null): Promise<PriceHint | null> {
  const sales = await getSales(isbn13, campus && campus !== ALL_CAMPUSES ? campus : null);
  const cents = (list: { cents: number }[]) => list.map((s) => s.cents);
  return summarisePrices(cents(sales.campus), 'campus') ?? summarisePrices(cents(sales.all), 'all');
}

/** A book image that has just become a completed sale (status 3) with an ISBN: what to count. */
function completedSale(change: { oldImage: Item | undefined; newImage: Item | undefined }) {
  if (change.oldImage?.status === 3) return null;
  return saleOf(change.newImage);
}

/** What to count of a completed sale (status 3) with an ISBN, or null. */
function saleOf(book: Item | undefined) {
  if (book?.status !== 3) return null;
  if (typeof book.ISBN !== 'string' || typeof book.priceCents !== 'number') return null;
  const at = [book.statusChangedAt, book.boughtAt, book.date].find((v) => typeof v === 'string') as string;
  return {
    isbn13: book.ISBN,
    campus: typeof book.campus === 'string' && book.campus !== '' ? book.campus : null,
    sale: { at, bookId: String(book.id), cents: book.priceCents },
  };
}

/**
 * Counts one completed sale in its ISBN's item: the every-campus list and its campus's, in one
 * write. Idempotent: each list counts a book once however often the record comes
 * (lib/db/sale-prices.ts `countedSale`).
 */
async function countSale(done: NonNullable<ReturnType<typeof saleOf>>): Promise<void> {
  await recordSale(done.isbn13, done.campus, done.sale);
}

export const salePricesProcessor: ChangeProcessor = {
  name: 'salePrices',
  wants: (c) => isBookKey(c.keys) && completedSale(c) !== null,
  apply: async (c) => {
    const done = completedSale(c);
    if (done) await countSale(done);
  },
};

/**
 * Counts the sales completed before the processor ran (e.g. after the release that adds it): reads
 * gsi1 `BOOKS#S3` a page at a time, no Scan, and counts each like the processor does. Safe to run
 * again (a counted sale is never counted twice). It is also the migration from the item's first
 * shape: it deletes each ISBN's items of that shape (`deleteFirstShapeSales`) before counting its
 * sales again. The number of sales with an ISBN it went through.
 */
export async function backfillSalePrices(pageSize = 100): Promise<number> {
  let cursor: string | undefined;
  let sales = 0;
  const migrated = new Set<string>();
  do {
    const page = await listBooksByStatus(3, pageSize, cursor);
    for (const book of page.items) {
      const done = saleOf(book as BookRecord & Item);
      if (!done) continue;
      if (!migrated.has(done.isbn13)) {
        await deleteFirstShapeSales(done.isbn13);
        migrated.add(done.isbn13);
      }
      await countSale(done);
      sales++;
    }
    cursor = page.next ?? undefined;
  } while (cursor);
  return sales;
}
