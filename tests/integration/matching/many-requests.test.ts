import { beforeEach, describe, expect, it } from 'vitest';
import { processors } from '#functions/streams/processors.ts';
import { matchesOfBookPk, matchScanKey } from '#lib/db/keys.ts';
import type { UserRecord } from '#lib/db/records.ts';
import { putRequest } from '#lib/db/requests.ts';
import { REQUESTS_PAGE, SCAN_RESERVE_MS } from '#lib/matching/processor.ts';
import { newRequestRecord } from '#lib/matching/requests.ts';
import { consume } from '#lib/streams/consume.ts';
import { putBook, TEST_CAMPUS } from '#tests/helpers/books.ts';
import { readItem } from '#tests/helpers/cart.ts';
import { makeContext } from '#tests/helpers/lambda.ts';
import { queryPartition } from '#tests/helpers/query.ts';
import { asEvent, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser } from '#tests/helpers/users.ts';

const REQUESTERS = 130;
let reader: StreamReader;

beforeEach(async () => {
  reader = new StreamReader();
  await reader.skipToEnd();
});

/** `n` requests for `course`, each by its own requester (match e-mails off, so none are sent). */
async function openRequests(course: string, n: number): Promise<void> {
  const start = Date.now() - n * 1000;
  const one = async (i: number) => {
    const user = await makeUser({ prefMatches: 'off' } as Partial<UserRecord>);
    const record = newRequestRecord(
      user.id,
      { name: `Wanted ${course}`, course },
      new Date(start + i * 1000),
      undefined,
      TEST_CAMPUS,
    );
    expect(await putRequest(record)).toBe('created');
  };
  for (let i = 0; i < n; i += 10)
    await Promise.all(Array.from({ length: Math.min(10, n - i) }, (_, j) => one(i + j)));
}

/** A book just listed by its seller whose course has REQUESTERS open requests (stream read up to before the book). */
async function bookWithManyRequesters() {
  const course = `BIG ${Date.now().toString(36).slice(-5)}`;
  await openRequests(course, REQUESTERS);
  await reader.skipToEnd();
  const seller = await makeUser();
  return putBook({ ownerId: seller.id, course, name: 'Unrelated Title' });
}

/** The stored matches of a book (gsi3 `BOOKMATCH#<bookId>`), every page. */
async function matchedRequesters(bookId: string): Promise<Set<string>> {
  const matches = await queryPartition(matchesOfBookPk(bookId), { index: 'gsi3' });
  return new Set(matches.map((m) => String(m.userId)));
}

/** Hands the consumer everything written since the last call, with `timeLeft` as its clock; no failures. */
async function deliver(timeLeft: () => number = () => 60_000) {
  const records = await reader.next();
  const context = { ...makeContext(), getRemainingTimeInMillis: timeLeft };
  const res = await consume(asEvent(records), context, processors);
  expect(res.batchItemFailures).toEqual([]);
  return records;
}

describe('matching a listed book against more than 100 open requests for its course', () => {
  it('matches every one of 130 requests, not only the 100 newest', async () => {
    const book = await bookWithManyRequesters();
    await deliver();
    expect((await matchedRequesters(book.id)).size).toBe(REQUESTERS);
    expect(await readItem(matchScanKey(book.id, book.date))).toBeUndefined();
  }, 120_000);

  it('saves where it stopped when the time runs short, and the saved scan carries on to the end', async () => {
    const book = await bookWithManyRequesters();

    // time for one page only: the first Query's page is matched, then the position is saved
    let pagesAllowed = 1;
    await deliver(() => (pagesAllowed-- > 0 ? 60_000 : SCAN_RESERVE_MS - 1));
    expect((await matchedRequesters(book.id)).size).toBe(REQUESTS_PAGE);
    const scan = await readItem(matchScanKey(book.id, book.date));
    expect(scan).toMatchObject({ type: 'matchScan', bookId: book.id, bookDate: book.date });

    // the saved position is a stream record of its own: delivering it matches the rest, once each
    const records = await deliver();
    expect(records.some((r) => r.dynamodb?.Keys?.pk?.S === matchScanKey(book.id, book.date).pk)).toBe(true);
    expect((await matchedRequesters(book.id)).size).toBe(REQUESTERS);
    expect(await readItem(matchScanKey(book.id, book.date))).toBeUndefined();
  }, 120_000);
});
