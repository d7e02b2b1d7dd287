/**
 * A saved book's change -> its savers are told, in-app and by e-mail under the `saved` preference:
 * its price dropped while listed, it was sold, or it stopped being listed (unlisted, hidden by
 * reports, or removed for good). Run by the stream consumer on the book's record; the savers come
 * from one bounded walk of the book's savers (gsi2 `SAVERS#<bookId>`), never a Scan. Each saver's
 * notification is caused by the stream record (`saved#<eventId>`), so a redelivered record writes
 * the same notification ids and changes nothing twice (lib/notifications/notify.ts).
 */
import { isBookKey } from '#lib/db/keys.ts';
import { type BookRecord, BookStatus } from '#lib/db/records.ts';
import { saversOf } from '#lib/db/saved.ts';
import { type SavedBookEvent, savedBookContent } from '#lib/notifications/messages.ts';
import { notify } from '#lib/notifications/notify.ts';
import type { ChangeProcessor, StreamChange } from '#lib/streams/types.ts';
import { toDollars } from '#lib/values/money.ts';

/**
 * The most savers one change tells (a bounded walk of the savers index, read 1 MB at a time). The
 * consumer has 60 s; each saver costs about four calls (contact, notification, outbox, its state).
 */
export const SAVERS_TOLD_MAX = 1000;
/** How many savers are told at once. */
const PARALLEL = 10;

/** What a change from `before` to `after` (absent: removed) means to the book's savers. Pure. */
export function savedBookEvent(
  before: Pick<BookRecord, 'status' | 'priceCents' | 'hidden'> | undefined,
  after: Pick<BookRecord, 'status' | 'priceCents' | 'hidden'> | undefined,
): SavedBookEvent | null {
  // Only a book that was listed and visible can change in a way its savers care about.
  if (!before || before.status !== BookStatus.Listed || before.hidden) return null;
  if (!after) return 'unlisted';
  if (after.status === BookStatus.Bought) return 'sold';
  if (after.status !== BookStatus.Listed || after.hidden) return 'unlisted';
  return after.priceCents < before.priceCents ? 'priceDrop' : null;
}

const dollars = (cents: number) => `$${toDollars(cents).toFixed(2)}`;

async function apply(change: StreamChange): Promise<void> {
  const before = change.oldImage as BookRecord | undefined;
  const after = change.newImage as BookRecord | undefined;
  const event = savedBookEvent(before, after);
  if (!event || !before) return;
  const book = after ?? before;
  const content = savedBookContent(
    event,
    { name: book.name, course: book.course, ISBN: book.ISBN },
    { from: dollars(before.priceCents), to: dollars(book.priceCents) },
  );
  // The buyer of a saved book hears that they bought it from the purchase notices instead.
  const skip = new Set([book.ownerId, after?.buyerId ?? '']);
  const savers = (await saversOf(book.id, SAVERS_TOLD_MAX)).filter((id) => !skip.has(id));
  for (let i = 0; i < savers.length; i += PARALLEL) {
    await Promise.all(
      savers.slice(i, i + PARALLEL).map((userId) =>
        notify({
          userId,
          cause: `saved#${change.eventId}`,
          kind: 'saved',
          bookId: book.id,
          message: content.message,
          email: content.email,
          category: 'saved',
        }),
      ),
    );
  }
}

export const savedBooksProcessor: ChangeProcessor = {
  name: 'saved-books',
  wants: (c) => isBookKey(c.keys) && (c.eventName === 'MODIFY' || c.eventName === 'REMOVE'),
  apply,
};
