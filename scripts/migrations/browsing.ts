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
 *
 * Campuses: a user gets the campus of their address; a book and a request get their owner's
 * campus, and their index keys move to the campus's (and, for a listed book, to its shard of the
 * listing of every campus). The search and matching entries follow by themselves: the stream
 * consumer sees each migrated book or request change and moves its entries to the new keys.
 *
 * List fields: a search entry or a match written before they carried the book's list fields
 * (lib/db/list-fields.ts) gets them from its book as stored now: a search entry is put whole (with
 * its price order on gsi4), or deleted when its book no longer has it; a match of a book still
 * listed at its date gets them. Both only while the item still has the earlier shape, so an entry
 * the consumer rewrote meanwhile is never overwritten (counted as raced, none left for a rerun).
 */

import { type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { searchEntriesOf } from '#lib/books/search-index.ts';
import { bookIndexes, bookKey, requestIndexes, userKey } from '#lib/db/keys.ts';
import { listFieldsOf } from '#lib/db/list-fields.ts';
import { type BookRecord, upgradeBook } from '#lib/db/records.ts';
import { documentClient, dynamoClient, TABLE } from '#lib/table/client.ts';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '#lib/table/commands.ts';
import { isConditionFailed } from '#lib/table/conditions.ts';
import { setAttribute } from '#lib/table/write-if.ts';
import { campusOfEmail, campusOfUser } from '#lib/values/campus.ts';

type Item = Record<string, unknown>;

// Its own client, with the service's settings: the service's refuses Scan, and this job reads the
// whole table on purpose.
let client: DynamoDBDocumentClient | undefined;
const maintenance = () => {
  client ??= documentClient(dynamoClient());
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

/** The campus of a user by id (cached for the run), or null when the user is gone. */
type CampusOf = (userId: string) => Promise<string | null>;

function ownerCampuses(): CampusOf {
  const known = new Map<string, string | null>();
  return async (userId) => {
    if (!known.has(userId)) {
      const out = await maintenance().send(
        new GetCommand({
          TableName: TABLE,
          Key: userKey(userId),
          ProjectionExpression: 'campus, emailNormalised',
        }),
      );
      known.set(userId, out.Item ? campusOfUser(out.Item) : null);
    }
    return known.get(userId) ?? null;
  };
}

/** SET and REMOVE clauses of attribute values, with their names and values. */
function assignments(set: Item, remove: string[] = []) {
  const names: Record<string, string> = {};
  const values: Item = {};
  const sets = Object.entries(set).map(([name, value], i) => {
    names[`#m${i}`] = name;
    values[`:m${i}`] = value;
    return `#m${i} = :m${i}`;
  });
  const removes = remove.map((name, i) => {
    names[`#x${i}`] = name;
    return `#x${i}`;
  });
  const expression = `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`;
  return { expression, names, values };
}

/** A book's migration: cents, grade, the owner's campus and the index keys that follow from them. */
function bookUpdate(item: Item, campus: string | null): UpdateCommand | null {
  const up = upgradeBook(item) as unknown as BookRecord;
  const withCampus = { ...up, campus: (item.campus as string | undefined) ?? campus };
  const idx = bookIndexes(withCampus) as Record<string, string | undefined>;
  const keysMoved = ['gsi1pk', 'gsi1sk', 'gsi4pk', 'gsi4sk'].some((k) => idx[k] !== item[k]);
  const campusAdded = !item.campus && Boolean(campus);
  if (!bookIsOutdated(item) && !keysMoved && !campusAdded) return null;
  const set: Item = {
    priceCents: up.priceCents,
    condition: up.condition,
    gsi1pk: idx.gsi1pk,
    gsi1sk: idx.gsi1sk,
  };
  if (campusAdded) set.campus = campus;
  const remove = ['price'];
  if (idx.gsi4pk) Object.assign(set, { gsi4pk: idx.gsi4pk, gsi4sk: idx.gsi4sk });
  else remove.push('gsi4pk', 'gsi4sk');
  const a = assignments(set, remove);
  return new UpdateCommand({
    TableName: TABLE,
    Key: { pk: item.pk, sk: item.sk },
    UpdateExpression: a.expression,
    // only the book as read: same status, date, condition, price and campus
    ConditionExpression:
      'attribute_exists(pk) AND #status = :oldStatus AND #date = :oldDate AND #condition = :oldCondition AND ' +
      ('price' in item ? '#price = :oldPrice AND ' : 'attribute_not_exists(#price) AND ') +
      (item.campus ? '#campus = :oldCampus' : 'attribute_not_exists(#campus)'),
    ExpressionAttributeNames: {
      ...a.names,
      '#status': 'status',
      '#date': 'date',
      '#condition': 'condition',
      '#price': 'price',
      '#campus': 'campus',
    },
    ExpressionAttributeValues: {
      ...a.values,
      ':oldStatus': item.status,
      ':oldDate': item.date,
      ':oldCondition': item.condition,
      ...('price' in item ? { ':oldPrice': item.price } : {}),
      ...(item.campus ? { ':oldCampus': item.campus } : {}),
    },
  });
}

/** A request's migration: its owner's campus and the matching keys of that campus. */
function requestUpdate(item: Item, campus: string): UpdateCommand {
  const idx = requestIndexes({
    id: String(item.id),
    createdAt: String(item.createdAt),
    isbn: (item.ISBN as string | null) ?? null,
    courseNorm: String(item.courseNorm),
    keyWord: (item.keyWord as string | null) ?? null,
    campus,
  });
  const a = assignments({ campus, ...idx });
  return new UpdateCommand({
    TableName: TABLE,
    Key: { pk: item.pk, sk: item.sk },
    UpdateExpression: a.expression,
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#campus)',
    ExpressionAttributeNames: { ...a.names, '#campus': 'campus' },
    ExpressionAttributeValues: a.values,
  });
}

type Migration = UpdateCommand | PutCommand | DeleteCommand;

/** A book as stored now (for the entries that copy its fields), or undefined when it is gone. */
const storedBook = async (bookId: unknown): Promise<Item | undefined> =>
  (
    await maintenance().send(
      new GetCommand({ TableName: TABLE, Key: bookKey(String(bookId)), ConsistentRead: true }),
    )
  ).Item;

/** A search entry without list fields: put whole from its book, or deleted when the book no longer has it. */
async function searchEntryMigration(item: Item): Promise<Migration> {
  const key = { pk: item.pk, sk: item.sk };
  const entry = searchEntriesOf(await storedBook(item.bookId)).get(`${String(item.pk)}\n${String(item.sk)}`);
  const earlierShape = {
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#name)',
    ExpressionAttributeNames: { '#name': 'name' },
  };
  if (!entry) return new DeleteCommand({ TableName: TABLE, Key: key, ...earlierShape });
  return new PutCommand({ TableName: TABLE, Item: entry, ...earlierShape });
}

/** A match without list fields: its book's, while the book is still listed at the match's date. */
async function matchMigration(item: Item): Promise<Migration | null> {
  const fields = listFieldsOf(await storedBook(item.bookId));
  if (!fields || fields.date !== item.bookDate) return null; // the consumer removes it with its book
  const earlierShape = { condition: 'attribute_exists(pk) AND attribute_not_exists(#a)' };
  return new UpdateCommand(setAttribute({ pk: item.pk, sk: item.sk }, 'book', fields, earlierShape));
}

/** The conditional write that migrates one item, or null when it is up to date. */
async function updateOf(item: Item, campusOf: CampusOf): Promise<Migration | null> {
  const key = { pk: item.pk, sk: item.sk };
  if (item.type === 'searchEntry' && typeof item.name !== 'string') return searchEntryMigration(item);
  if (item.type === 'match' && !item.book) return matchMigration(item);
  if (item.type === 'book') {
    return bookUpdate(item, item.campus ? null : await campusOf(String(item.ownerId)));
  }
  if (item.type === 'user' && !item.campus && typeof item.emailNormalised === 'string') {
    const noCampus = {
      condition: 'attribute_exists(pk) AND attribute_not_exists(#a) AND emailNormalised = :email',
      values: { ':email': item.emailNormalised },
    };
    return new UpdateCommand(setAttribute(key, 'campus', campusOfEmail(item.emailNormalised), noCampus));
  }
  if (item.type === 'request' && !item.campus) {
    const campus = await campusOf(String(item.userId));
    return campus ? requestUpdate(item, campus) : null;
  }
  if (item.type === 'cartItem' && item.snapshot && bookIsOutdated(item.snapshot as Item)) {
    const asRead = { condition: '#a = :old', values: { ':old': item.snapshot } };
    return new UpdateCommand(setAttribute(key, 'snapshot', upgradeBook(item.snapshot as Item), asRead));
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
  const campusOf = ownerCampuses();
  for (const item of out.Items ?? []) {
    const update = await updateOf(item, campusOf);
    if (!update) continue;
    try {
      await maintenance().send(update as UpdateCommand);
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
