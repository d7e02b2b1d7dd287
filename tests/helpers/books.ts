/** Test books: BookRecords written straight to the table with their keys and indexes. */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { db, TABLE } from '../../lib/db/client.ts';
import { bookIndexes, bookKey } from '../../lib/db/keys.ts';
import type { BookRecord, BookStatusValue } from '../../lib/db/records.ts';

export function makeBookRecord(overrides: Partial<BookRecord> & { ownerId: string }): BookRecord {
  const id = overrides.id ?? ulid();
  const course = overrides.course ?? `TST ${id.slice(-4)}`;
  return {
    type: 'book',
    id,
    name: `Test Book ${id.slice(-8)}`,
    edition: 1,
    course,
    courseNorm: course.toUpperCase().replace(/[\s-]+/g, ''),
    price: 25,
    condition: 'Good',
    comments: '',
    ISBN: null,
    status: 0,
    date: new Date().toISOString(),
    ownerFirstName: 'Seller',
    ...overrides,
  };
}

/** Stores a book as the listings area would (status 0 unless told otherwise). */
export async function putBook(overrides: Partial<BookRecord> & { ownerId: string }): Promise<BookRecord> {
  const record = makeBookRecord(overrides);
  await db.send(
    new PutCommand({ TableName: TABLE, Item: { ...bookKey(record.id), ...bookIndexes(record), ...record } }),
  );
  return record;
}

/** Moves a book to another status the way the other areas do (status, buyer and indexes). */
export async function setBookStatus(
  book: BookRecord,
  status: BookStatusValue,
  extra: Partial<Pick<BookRecord, 'buyerId' | 'boughtAt' | 'date'>> = {},
): Promise<BookRecord> {
  const next: BookRecord = { ...book, ...extra, status };
  const idx = bookIndexes(next);
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: bookKey(book.id),
      UpdateExpression:
        'SET #status = :s, buyerId = :buyer, boughtAt = :bought, #date = :date, gsi1pk = :g1pk, gsi1sk = :g1sk',
      ExpressionAttributeNames: { '#status': 'status', '#date': 'date' },
      ExpressionAttributeValues: {
        ':s': status,
        ':buyer': next.buyerId ?? null,
        ':bought': next.boughtAt ?? null,
        ':date': next.date,
        ':g1pk': idx.gsi1pk,
        ':g1sk': idx.gsi1sk,
      },
    }),
  );
  return next;
}
