/**
 * Book factory: writes a BookRecord with its keys and index attributes, and moves the counters
 * postBook moves (global books_s<status> and totalBooks; the owner's activeListings for status 0)
 * in the same transaction, so counter-based statistics stay right in tests.
 */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { db, TABLE } from '../../lib/db/client.ts';
import { bookIndexes, bookKey, globalStatsKey, userStatsKey } from '../../lib/db/keys.ts';
import { type BookRecord, BookStatus } from '../../lib/db/records.ts';

let counter = 0;
let lastDate = 0;

/** Listing dates strictly increase within a test file, so "newest first" orders are deterministic. */
function nextDate(): string {
  lastDate = Math.max(Date.now(), lastDate + 1);
  return new Date(lastDate).toISOString();
}

export async function makeBook(
  owner: { id: string; user?: { firstName: string } },
  overrides: Partial<BookRecord> = {},
): Promise<BookRecord> {
  counter += 1;
  const id = overrides.id ?? ulid();
  const book: BookRecord = {
    type: 'book',
    id,
    name: `Test Book ${counter}`,
    edition: 1,
    course: 'CSC 171',
    courseNorm: 'CSC171',
    price: 10,
    condition: 'Good',
    comments: '',
    ISBN: null,
    status: BookStatus.Listed,
    date: nextDate(),
    ownerId: owner.id,
    ownerFirstName: owner.user?.firstName ?? 'Owner',
    ...overrides,
  };
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: TABLE,
            Item: { ...bookKey(id), ...bookIndexes(book), ...book },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: TABLE,
            Key: globalStatsKey(),
            UpdateExpression: 'ADD totalBooks :one, #s :one',
            ExpressionAttributeNames: { '#s': `books_s${book.status}` },
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
        ...(book.status === BookStatus.Listed
          ? [
              {
                Update: {
                  TableName: TABLE,
                  Key: userStatsKey(owner.id),
                  UpdateExpression: 'ADD activeListings :one',
                  ExpressionAttributeValues: { ':one': 1 },
                },
              },
            ]
          : []),
      ],
    }),
  );
  return book;
}

/** The stored book, as it is now (consistent read). */
export async function readBook(bookId: string): Promise<BookRecord | undefined> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: bookKey(bookId), ConsistentRead: true }));
  return out.Item as BookRecord | undefined;
}
