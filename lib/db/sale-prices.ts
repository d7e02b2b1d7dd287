/**
 * The last completed sales of one ISBN-13 at one campus, or at every campus (`all`): ONE item each,
 * `SALEPRICES#<isbn13>` / `<campus|all>` (lib/db/keys.ts `salePricesKey`), holding at most
 * SALE_PRICES_KEPT sales `{ at, bookId, cents }` oldest first, and a `version` for the
 * read-modify-write. The price hint reads it with one GetItem (lib/books/price-hint.ts).
 */
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand, PutCommand } from '#lib/table/commands.ts';
import { isConditionFailed } from '#lib/table/conditions.ts';
import { salePricesKey } from './keys.ts';

/** How many of the latest sales an item keeps (a median needs the values, not a running sum). */
export const SALE_PRICES_KEPT = 50;

export interface Sale {
  /** when it completed (status 3), ISO-8601 */
  at: string;
  bookId: string;
  /** the price it sold for, integer cents */
  cents: number;
}

interface SalePricesItem {
  sales?: Sale[];
  version?: number;
}

const byTime = (a: Sale, b: Sale): number =>
  a.at < b.at ? -1 : a.at > b.at ? 1 : a.bookId < b.bookId ? -1 : a.bookId > b.bookId ? 1 : 0;

/** The kept sales of an ISBN-13 at a campus (or `all`), oldest first: one GetItem. */
export async function getSales(isbn13: string, campus: string): Promise<Sale[]> {
  const out = await db.send(
    new GetCommand({
      TableName: TABLE,
      Key: salePricesKey(isbn13, campus),
      ProjectionExpression: 'sales',
    }),
  );
  return (out.Item as SalePricesItem | undefined)?.sales ?? [];
}

/**
 * The kept sales once `sale` is counted, or null when counting it changes nothing: it is counted
 * already, or it is older than every one of the SALE_PRICES_KEPT kept (so it is not among the
 * latest; this also holds for a counted sale pushed out since, which is why a redelivered record
 * can never count twice). Pure.
 */
export function withSale(kept: readonly Sale[], sale: Sale): Sale[] | null {
  if (kept.some((s) => s.bookId === sale.bookId)) return null;
  const next = [...kept, sale].sort(byTime).slice(-SALE_PRICES_KEPT);
  return next.includes(sale) ? next : null;
}

/**
 * How often a write that lost a race with another sale of the same ISBN is tried. Records of one
 * stream shard are applied one after another, so only sales on different shards race.
 */
const ATTEMPTS = 8;

/**
 * Counts one completed sale in the item of `campus` (or `all`): read (consistent), add, write back
 * only if nobody wrote in between (conditional on the version read). True when it was counted,
 * false when it was already (or is too old to be among the latest). Throws after ATTEMPTS lost
 * races, so the stream record is retried.
 */
export async function recordSale(isbn13: string, campus: string, sale: Sale): Promise<boolean> {
  const key = salePricesKey(isbn13, campus);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const out = await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }));
    const item = out.Item as SalePricesItem | undefined;
    const next = withSale(item?.sales ?? [], sale);
    if (!next) return false;
    const version = item?.version;
    try {
      await db.send(
        new PutCommand({
          TableName: TABLE,
          Item: { ...key, type: 'salePrices', sales: next, version: (version ?? 0) + 1 },
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
  throw new Error(`sale prices of ${isbn13} at ${campus}: still contended after ${ATTEMPTS} attempts`);
}
