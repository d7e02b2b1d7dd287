/** Book factories: stored records for seeding books directly (the same helpers as the books area's). */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { db, TABLE } from '../../lib/db/client.ts';
import { bookIndexes, bookKey } from '../../lib/db/keys.ts';
import type { BookRecord } from '../../lib/db/records.ts';

/** A stored book record (status 0 unless told), dated `date` or now. */
export function makeBookRecord(ownerId: string, overrides: Partial<BookRecord> = {}): BookRecord {
  const course = overrides.course ?? 'MTH 101';
  return {
    type: 'book',
    id: ulid(),
    name: 'Calculus Early Transcendentals',
    edition: 8,
    course,
    courseNorm: course.toUpperCase().replace(/[\s-]/g, ''),
    price: 30,
    condition: 'Used',
    comments: '',
    ISBN: null,
    status: 0,
    date: new Date().toISOString(),
    ownerId,
    ownerFirstName: 'Ada',
    ...overrides,
  };
}

/** Puts a book straight into the table with its index attributes (no counters, no stream consumer run). */
export async function seedBook(ownerId: string, overrides: Partial<BookRecord> = {}): Promise<BookRecord> {
  const record = makeBookRecord(ownerId, overrides);
  await db.send(
    new PutCommand({ TableName: TABLE, Item: { ...bookKey(record.id), ...bookIndexes(record), ...record } }),
  );
  return record;
}

/** A date `days` days (and `extraMs`) before `now`, ISO-8601. */
export const daysBefore = (now: Date, days: number, extraMs = 0): string =>
  new Date(now.getTime() - days * 86_400_000 - extraMs).toISOString();
