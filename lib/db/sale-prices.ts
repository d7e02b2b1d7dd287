/**
 * The last completed sales of one ISBN-13, in ONE item, `SALEPRICES#<isbn13>` / `SALES` (lib/db/keys.ts
 * `salePricesKey`): `all`, the last SALE_PRICES_KEPT sales at every campus, and `campuses`, the
 * last SALE_PRICES_KEPT of each campus (at most SALE_PRICES_CAMPUSES campuses), each list oldest
 * first, with a `version` for the read-modify-write. A completed sale is one write of this item; the
 * price hint reads it with one GetItem (lib/books/price-hint.ts).
 */
import { db, TABLE } from '#lib/table/client.ts';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '#lib/table/commands.ts';
import { isConditionFailed } from '#lib/table/conditions.ts';
import { SALE_PRICES_SK, salePricesKey } from './keys.ts';

/** How many of the latest sales a list keeps (a median needs the values, not a running sum). */
export const SALE_PRICES_KEPT = 50;

/**
 * How many campuses' lists an ISBN's item keeps: those with the latest sales. It bounds the item
 * (about 4 KB a full list, so at most about 90 KB) and so what a lookup and a sale cost. A campus
 * dropped for room falls back to the every-campus figure, which still holds its sales.
 */
export const SALE_PRICES_CAMPUSES = 20;

export interface Sale {
  /** when it completed (status 3), ISO-8601 */
  at: string;
  bookId: string;
  /** the price it sold for, integer cents */
  cents: number;
}

/** What an ISBN's item holds. */
export interface KeptSales {
  /** the last sales at every campus */
  all: Sale[];
  /** the last sales of each campus, by campus */
  campuses: Record<string, Sale[]>;
}

interface SalePricesItem extends Partial<KeptSales> {
  version?: number;
}

const byTime = (a: Sale, b: Sale): number =>
  a.at < b.at ? -1 : a.at > b.at ? 1 : a.bookId < b.bookId ? -1 : a.bookId > b.bookId ? 1 : 0;

/**
 * An ISBN-13's kept sales at `campus` and at every campus, from ONE GetItem (eventually consistent;
 * only the two lists are returned, though the read is charged for the whole item).
 */
export async function getSales(
  isbn13: string,
  campus: string | null,
): Promise<{ campus: Sale[]; all: Sale[] }> {
  const out = await db.send(
    new GetCommand({
      TableName: TABLE,
      Key: salePricesKey(isbn13),
      ProjectionExpression: campus ? '#all, #campuses.#campus' : '#all',
      ExpressionAttributeNames: {
        '#all': 'all',
        ...(campus ? { '#campuses': 'campuses', '#campus': campus } : {}),
      },
    }),
  );
  const item = out.Item as SalePricesItem | undefined;
  return { campus: (campus && item?.campuses?.[campus]) || [], all: item?.all ?? [] };
}

/**
 * A list of kept sales once `sale` is counted, or null when counting it changes nothing: it is
 * counted already, or it is older than every one of the SALE_PRICES_KEPT kept (so it is not among
 * the latest; this also holds for a counted sale pushed out since, which is why a redelivered
 * record can never count twice). Pure.
 */
export function withSale(kept: readonly Sale[], sale: Sale): Sale[] | null {
  if (kept.some((s) => s.bookId === sale.bookId)) return null;
  const next = [...kept, sale].sort(byTime).slice(-SALE_PRICES_KEPT);
  return next.includes(sale) ? next : null;
}

/** The SALE_PRICES_CAMPUSES campuses' lists with the latest last sale. Pure. */
function latestCampuses(campuses: Record<string, Sale[]>): Record<string, Sale[]> {
  const lastAt = (list: Sale[]) => list.at(-1)?.at ?? '';
  const kept = Object.entries(campuses)
    .sort(([, a], [, b]) => (lastAt(a) < lastAt(b) ? 1 : lastAt(a) > lastAt(b) ? -1 : 0))
    .slice(0, SALE_PRICES_CAMPUSES);
  return Object.fromEntries(kept);
}

/**
 * An ISBN's kept sales once `sale` (at `campus`, or at no campus) is counted in the every-campus list
 * and in its campus's, or null when that changes nothing (each list counts a book once: `withSale`).
 * A sale the every-campus list holds is not counted in a campus list again, so a redelivered record
 * cannot count twice in a campus list dropped for room and started again since either. Pure.
 */
export function countedSale(kept: KeptSales, campus: string | null, sale: Sale): KeptSales | null {
  const all = withSale(kept.all, sale);
  let campuses = kept.campuses;
  if (campus) {
    // both lists are written at once, so a sale the every-campus list holds was counted here too
    // (or in a list since dropped for room)
    const seen = kept.all.some((s) => s.bookId === sale.bookId);
    const list = seen ? null : withSale(kept.campuses[campus] ?? [], sale);
    if (list) campuses = latestCampuses({ ...kept.campuses, [campus]: list });
  }
  if (!all && campuses === kept.campuses) return null;
  return { all: all ?? kept.all, campuses };
}

/**
 * How often a write that lost a race with another sale of the same ISBN is tried. Records of one
 * stream shard are applied one after another, so only sales on different shards race.
 */
const ATTEMPTS = 8;

/**
 * Counts one completed sale of an ISBN-13 (at `campus`, or at no campus): read the item
 * (consistent), count it (`countedSale`), write it back with ONE PutItem only if nobody wrote in
 * between (conditional on the version read). True when it was counted, false when it was already
 * (or is too old to be among the latest). Throws after ATTEMPTS lost races, so the stream record is
 * retried.
 */
export async function recordSale(isbn13: string, campus: string | null, sale: Sale): Promise<boolean> {
  const key = salePricesKey(isbn13);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const out = await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }));
    const item = out.Item as SalePricesItem | undefined;
    const next = countedSale({ all: item?.all ?? [], campuses: item?.campuses ?? {} }, campus, sale);
    if (!next) return false;
    const version = item?.version;
    try {
      await db.send(
        new PutCommand({
          TableName: TABLE,
          Item: { ...key, type: 'salePrices', ...next, version: (version ?? 0) + 1 },
          ...(version === undefined
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: '#version = :version',
                ExpressionAttributeNames: { '#version': 'version' },
                ExpressionAttributeValues: { ':version': version },
              }),
        }),
      );
      return true;
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
    }
  }
  throw new Error(`sale prices of ${isbn13}: still contended after ${ATTEMPTS} attempts`);
}

/**
 * Migration from the first shape (one item per campus, `SALEPRICES#<isbn13>` / `<campus>`, and one
 * for every campus, `/ all`): deletes an ISBN's items of that shape (one Query of its partition, at
 * most a few items). The backfill runs it for every ISBN it counts, so running the backfill once
 * rebuilds the hint in the new shape and leaves none of the old. The number of items deleted.
 */
export async function deleteFirstShapeSales(isbn13: string): Promise<number> {
  const { pk } = salePricesKey(isbn13);
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: 'pk, sk',
    }),
  );
  const old = (out.Items ?? []).filter((i) => i.sk !== SALE_PRICES_SK);
  for (const { sk } of old) await db.send(new DeleteCommand({ TableName: TABLE, Key: { pk, sk } }));
  return old.length;
}
