/** Book factories: request bodies for postBook, and stored records for seeding listings directly. */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { normaliseCourse } from '../../lib/books/text.ts';
import { bookItem } from '../../lib/db/books.ts';
import { db, TABLE } from '../../lib/db/client.ts';
import type { BookRecord } from '../../lib/db/records.ts';

export interface PostBookFields {
  name: string;
  edition: number;
  course: string;
  price: number;
  condition: string;
  comments?: string;
  Comments?: string;
  ISBN?: string | null;
}

/** A valid postBook body. */
export const makeBookBody = (overrides: Partial<PostBookFields> = {}): PostBookFields => ({
  name: 'Introduction to Algorithms',
  edition: 3,
  course: 'CSC 171',
  price: 45.5,
  condition: 'Good',
  comments: 'Some highlighting',
  ...overrides,
});

/** A stored book record (status 0 unless told), dated `date` or now. */
export function makeBookRecord(ownerId: string, overrides: Partial<BookRecord> = {}): BookRecord {
  const course = overrides.course ?? 'MTH 101';
  return {
    type: 'book',
    id: ulid(),
    name: 'Calculus Early Transcendentals',
    edition: 8,
    course,
    courseNorm: normaliseCourse(course),
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

/** Puts a book straight into the table (no counters, no stream consumer run). */
export async function seedBook(ownerId: string, overrides: Partial<BookRecord> = {}): Promise<BookRecord> {
  const record = makeBookRecord(ownerId, overrides);
  await db.send(new PutCommand({ TableName: TABLE, Item: bookItem(record) }));
  return record;
}

/** `n` distinct ISO dates, oldest first, one second apart, ending `endsAgoMs` before now. */
export function datesOldestFirst(n: number, endsAgoMs = 60_000): string[] {
  const end = Date.now() - endsAgoMs;
  return Array.from({ length: n }, (_, i) => new Date(end - (n - 1 - i) * 1000).toISOString());
}
