/**
 * A purchase answers the buyer's own requests for that book. When a book is bought (0 -> 1), each
 * open request of its buyer that the book answers (`answersRequest`: its ISBN, else its title and
 * edition; a book that only shares the course does not) is closed, and the buyer is told once, in
 * the app. Without this a student who bought the book they asked for went on hearing about every
 * other copy listed. A purchase cancelled later does not reopen the request: the notice says to
 * ask again. Run by the matcher (processor.ts) on the book's stream record; one Query of the
 * buyer's requests (at most MAX_OPEN_REQUESTS), then per answered request a notification (its id
 * fixed by the request, so a redelivery writes nothing new) and the request's deletion (its own
 * stream record takes its matches with it).
 */
import type { BookRecord } from '#lib/db/records.ts';
import { deleteRequestRecord, listRequests } from '#lib/db/requests.ts';
import { fulfilledContent } from '#lib/notifications/messages.ts';
import { notify } from '#lib/notifications/notify.ts';
import { answersRequest } from './rule.ts';

export async function closeAnsweredRequests(book: BookRecord, buyerId: string): Promise<void> {
  const answered = (await listRequests(buyerId)).filter((r) => answersRequest(r, book));
  for (const request of answered) {
    const content = fulfilledContent(request.name, { name: book.name, course: book.course, ISBN: book.ISBN });
    // told first: a redelivery after a failed deletion tells nothing twice, and still deletes
    await notify({
      userId: buyerId,
      cause: `fulfilled#${request.id}`,
      kind: 'fulfilled',
      bookId: book.id,
      message: content.message,
      email: content.email,
      category: 'matches',
      emailGate: async () => false,
    });
    await deleteRequestRecord(buyerId, request.id);
  }
}
