/** Book factories: request bodies for postBook, and stored records for seeding listings directly. */

import { ulid } from 'ulid';
import type { PostBookBody } from '#lib/books/inputs.ts';
import { normaliseCourse } from '#lib/books/text.ts';
import { bookItem, insertBook, listingIndexMove } from '#lib/db/books.ts';
import { bookKey } from '#lib/db/keys.ts';
import type { BookRecord, BookStatusValue } from '#lib/db/records.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand, PutCommand, UpdateCommand } from '#lib/table/commands.ts';
import { toCents } from '#lib/values/money.ts';
import type * as z from '#lib/zod.ts';
import { setStored } from '#tests/helpers/stored.ts';

/** A postBook body as a client sends it (the schema's input). */
export type PostBookFields = z.input<typeof PostBookBody>;

/** A valid postBook body. */
export const makeBookBody = (overrides: Partial<PostBookFields> = {}): PostBookFields => ({
  name: 'Introduction to Algorithms',
  edition: 3,
  course: 'CSC 171',
  price: 45.5,
  condition: 'good',
  comments: 'Some highlighting',
  ...overrides,
});

/** Overrides of a book record; `price` is a convenience in dollars for `priceCents`. */
export type BookOverrides = Partial<BookRecord> & { price?: number };

/** The campus of the users tests/helpers/users.ts makes. */
export const TEST_CAMPUS = 'test.edu';

/** A stored book record (status 0 unless told), dated `date` or now. */
export function makeBookRecord(ownerId: string, bookOverrides: BookOverrides = {}): BookRecord {
  const { price, ...overrides } = bookOverrides;
  const course = overrides.course ?? 'MTH 101';
  return {
    type: 'book',
    id: ulid(),
    name: 'Calculus Early Transcendentals',
    edition: 8,
    course,
    courseNorm: normaliseCourse(course),
    priceCents: 3000,
    condition: 'good',
    comments: '',
    ISBN: null,
    status: 0,
    date: new Date().toISOString(),
    ownerId,
    ownerFirstName: 'Ada',
    // the campus of tests/helpers/users.ts's addresses (@test.edu)
    campus: TEST_CAMPUS,
    ...overrides,
    ...(price === undefined ? {} : { priceCents: toCents(price) }),
  };
}

/** Puts a book straight into the table (no counters, no stream consumer run). */
export async function seedBook(ownerId: string, overrides: BookOverrides = {}): Promise<BookRecord> {
  const record = makeBookRecord(ownerId, overrides);
  await db.send(new PutCommand({ TableName: TABLE, Item: bookItem(record) }));
  return record;
}

/** `n` distinct ISO dates, oldest first, one second apart, ending `endsAgoMs` before now. */
export function datesOldestFirst(n: number, endsAgoMs = 60_000): string[] {
  const end = Date.now() - endsAgoMs;
  return Array.from({ length: n }, (_, i) => new Date(end - (n - 1 - i) * 1000).toISOString());
}

/** Stores a book with a neutral, unique title and course, so nothing matches it by accident. */
export async function putBook(overrides: BookOverrides & { ownerId: string }): Promise<BookRecord> {
  const { ownerId, ...rest } = overrides;
  const tag = ulid().slice(-8);
  return seedBook(ownerId, { name: `Test Book ${tag}`, course: `TST ${tag.slice(-4)}`, ...rest });
}

/** Moves a book to another status the way the other areas do (status, buyer and indexes). */
export async function setBookStatus(
  book: BookRecord,
  status: BookStatusValue,
  extra: Partial<Pick<BookRecord, 'buyerId' | 'boughtAt' | 'date' | 'orderId'>> = {},
): Promise<BookRecord> {
  const next: BookRecord = { ...book, ...extra, status };
  const move = listingIndexMove(next);
  // the order id is written only when given, as checkout does
  const order = 'orderId' in extra ? { orderId: next.orderId ?? null } : {};
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: bookKey(book.id),
      UpdateExpression: `SET #status = :s, buyerId = :buyer, boughtAt = :bought, #date = :date, ${Object.keys(
        {
          ...move.set,
          ...order,
        },
      )
        .map((k) => `${k} = :${k}`)
        .join(', ')}${move.remove.length > 0 ? ` REMOVE ${move.remove.join(', ')}` : ''}`,
      ExpressionAttributeNames: { '#status': 'status', '#date': 'date' },
      ExpressionAttributeValues: {
        ':s': status,
        ':buyer': next.buyerId ?? null,
        ':bought': next.boughtAt ?? null,
        ':date': next.date,
        ...Object.fromEntries(Object.entries({ ...move.set, ...order }).map(([k, v]) => [`:${k}`, v])),
      },
    }),
  );
  return next;
}

let lastDate = 0;

/** Listing dates strictly increase within a test file, so "newest first" orders are deterministic. */
function nextDate(): string {
  lastDate = Math.max(Date.now(), lastDate + 1);
  return new Date(lastDate).toISOString();
}

/**
 * Stores a book the way postBook does (insertBook: the book plus the counters books_s<status>,
 * totalBooks and the owner's activeListings, in one transaction), with a neutral unique title and
 * course so nothing matches it by accident.
 */
export async function makeBook(owner: { id: string }, overrides: BookOverrides = {}): Promise<BookRecord> {
  const tag = ulid().slice(-8);
  const record = makeBookRecord(owner.id, {
    name: `Test Book ${tag}`,
    course: `TST ${tag.slice(-4)}`,
    priceCents: 1000,
    date: nextDate(),
    ...overrides,
  });
  await insertBook(record);
  return record;
}

/** The stored book, as it is now (consistent read). */
export async function readBook(bookId: string): Promise<BookRecord | undefined> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: bookKey(bookId), ConsistentRead: true }));
  return out.Item as BookRecord | undefined;
}

/** A date `days` days (and `extraMs`) before `now`, ISO-8601. */
export const daysBefore = (now: Date, days: number, extraMs = 0): string =>
  new Date(now.getTime() - days * 86_400_000 - extraMs).toISOString();

/** Sets a stored book's status alone (indexes untouched): a book changed behind a reader's back. */
export const setStoredStatus = (bookId: string, status: number): Promise<void> =>
  setStored(bookKey(bookId), { status });
