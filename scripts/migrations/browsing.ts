/**
 * The browsing migration (issue 13): brings every stored entity written by earlier code to
 * today's shape. Books and cart snapshots: price in dollars -> `priceCents`, free-text condition ->
 * a grade (lib/db/records.ts upgradeBook, the same function every read uses, so migrated and
 * unmigrated items read the same while it runs).
 *
 * It Scans the table a page at a time (a maintenance job, never a request path) and rewrites each
 * outdated item with a conditional UpdateItem on the values it read, so a concurrent write by the
 * service is never overwritten: such an item is counted as `raced` and picked up by the next run.
 * Every page ends at a key the caller can store; a run started from it carries on (resumable), and
 * running it again over migrated items changes nothing (idempotent).
 */
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createClient, type db as serviceClient, TABLE } from '#lib/db/client.ts';
import { isConditionFailed } from '#lib/db/conditions.ts';
import { upgradeBook } from '#lib/db/records.ts';

type Item = Record<string, unknown>;

// Its own client: the service's refuses Scan, and this job reads the whole table on purpose.
let client: typeof serviceClient | undefined;
const maintenance = () => {
  client ??= createClient({ allowScan: true });
  return client;
};
export type StartKey = Record<string, unknown>;

export interface MigrationCounts {
  scanned: number;
  migrated: number;
  /** changed by the service between the read and the write: left for the next run */
  raced: number;
}

const isGrade = (book: Item) => upgradeBook(book).condition === book.condition;

/** Whether a book (or a cart snapshot) still has the old shape. */
export const bookIsOutdated = (book: Item): boolean =>
  'price' in book || typeof book.priceCents !== 'number' || !isGrade(book);

/** The conditional update that migrates one item, or null when it is up to date. */
function updateOf(item: Item): UpdateCommand | null {
  const key = { pk: item.pk, sk: item.sk };
  if (item.type === 'book' && bookIsOutdated(item)) {
    const up = upgradeBook(item);
    return new UpdateCommand({
      TableName: TABLE,
      Key: key,
      UpdateExpression: 'SET priceCents = :cents, #condition = :grade REMOVE #price',
      ConditionExpression:
        'attribute_exists(pk) AND #condition = :oldCondition AND ' +
        ('price' in item ? '#price = :oldPrice' : 'attribute_not_exists(#price)'),
      ExpressionAttributeNames: { '#condition': 'condition', '#price': 'price' },
      ExpressionAttributeValues: {
        ':cents': up.priceCents,
        ':grade': up.condition,
        ':oldCondition': item.condition,
        ...('price' in item ? { ':oldPrice': item.price } : {}),
      },
    });
  }
  if (item.type === 'cartItem' && item.snapshot && bookIsOutdated(item.snapshot as Item)) {
    return new UpdateCommand({
      TableName: TABLE,
      Key: key,
      UpdateExpression: 'SET #snapshot = :snapshot',
      ConditionExpression: '#snapshot = :old',
      ExpressionAttributeNames: { '#snapshot': 'snapshot' },
      ExpressionAttributeValues: { ':snapshot': upgradeBook(item.snapshot as Item), ':old': item.snapshot },
    });
  }
  return null;
}

/**
 * Migrates one page of the table from `startKey`; returns what it did and the key to start the
 * next page from (undefined once the table is done).
 */
export async function migratePage(
  startKey: StartKey | undefined,
  pageSize = 100,
): Promise<MigrationCounts & { next: StartKey | undefined }> {
  const out = await maintenance().send(
    new ScanCommand({ TableName: TABLE, Limit: pageSize, ExclusiveStartKey: startKey }),
  );
  const counts: MigrationCounts = { scanned: out.Items?.length ?? 0, migrated: 0, raced: 0 };
  for (const item of out.Items ?? []) {
    const update = updateOf(item);
    if (!update) continue;
    try {
      await maintenance().send(update);
      counts.migrated++;
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
      counts.raced++;
    }
  }
  return { ...counts, next: out.LastEvaluatedKey };
}

/** Migrates the whole table from `startKey`, calling `checkpoint` after every page (to resume from). */
export async function migrateTable(
  options: { startKey?: StartKey; pageSize?: number; checkpoint?: (next: StartKey | undefined) => void } = {},
): Promise<MigrationCounts> {
  const total: MigrationCounts = { scanned: 0, migrated: 0, raced: 0 };
  let start = options.startKey;
  do {
    const page = await migratePage(start, options.pageSize);
    total.scanned += page.scanned;
    total.migrated += page.migrated;
    total.raced += page.raced;
    start = page.next;
    options.checkpoint?.(start);
  } while (start);
  return total;
}
