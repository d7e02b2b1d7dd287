/**
 * Migration to the message shape that names its book: an askSeller message holds the book's title
 * (`bookName`) beside its id since 2026-11-28; this gives the ones written before it theirs, from
 * the book (docs/conversations.md). Maintenance only, run by scripts/backfill-message-book-names.ts,
 * and kept out of `lib/` on purpose: it Scans (request code never does), on a plain client (the
 * service's refuses Scans), a page at a time. Safe to run again: each write is conditioned on the
 * title being absent.
 */
import { getBook } from '#lib/db/books.ts';
import { type MessageRecord, setMessageBookName } from '#lib/db/conversations.ts';
import { scanPages } from './scan.ts';

export interface BookNamesBackfill {
  /** messages given their book's title */
  titled: number;
  /** messages whose book is gone: the thread shows them as "About this book" */
  bookGone: number;
}

export async function backfillMessageBookNames(
  pageSize = 1000,
  progress: (done: BookNamesBackfill) => void = () => undefined,
): Promise<BookNamesBackfill> {
  const done: BookNamesBackfill = { titled: 0, bookGone: 0 };
  const titles = new Map<string, string | null>();
  await scanPages<MessageRecord>(
    {
      FilterExpression: '#type = :message AND attribute_exists(bookId) AND attribute_not_exists(bookName)',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':message': 'message' },
    },
    pageSize,
    async (messages) => {
      for (const m of messages) {
        const bookId = m.bookId as string;
        if (!titles.has(bookId)) titles.set(bookId, (await getBook(bookId))?.name ?? null);
        const title = titles.get(bookId);
        if (!title) done.bookGone++;
        else if (await setMessageBookName(m, title)) done.titled++;
      }
    },
    () => progress(done),
  );
  return done;
}
