/** getUserMatches: listed books matched to the caller's requests, newest first. */

import { Book, toApiBook } from '#lib/books/schemas.ts';
import { getBooks, inCartIds } from '#lib/db/books.ts';
import { listMatchesOfUser } from '#lib/db/matches.ts';
import * as z from '#lib/zod.ts';

/** At most this many stored matches are read per call (newest first): up to this many books. */
export const MATCHES_READ_LIMIT = 100;

export const MatchedBook = z.extend(Book, {
  inCart: z.boolean(),
  requestIds: z.array(z.string()).check(z.minLength(1)),
});
export type MatchedBook = z.infer<typeof MatchedBook>;

/**
 * Reads the caller's newest matches (one Query), then the books (one BatchGet) and the caller's
 * cart entries for them (one BatchGet). Books no longer listed are dropped here, so a sold or
 * unlisted book leaves the answer at once, before the consumer deletes its matches.
 */
export async function getUserMatches(userId: string): Promise<MatchedBook[]> {
  const matches = await listMatchesOfUser(userId, MATCHES_READ_LIMIT);
  const order: string[] = [];
  const requestIds = new Map<string, string[]>();
  for (const m of matches) {
    const ids = requestIds.get(m.bookId);
    if (ids) {
      if (!ids.includes(m.requestId)) ids.push(m.requestId);
    } else {
      requestIds.set(m.bookId, [m.requestId]);
      order.push(m.bookId);
    }
  }
  if (order.length === 0) return [];
  const [byId, inCart] = await Promise.all([getBooks(order), inCartIds(userId, order)]);
  const out: MatchedBook[] = [];
  for (const id of order) {
    const book = byId.get(id);
    if (book?.status !== 0 || book.hidden || book.ownerId === userId) continue; // hidden: reported
    out.push({
      ...toApiBook(book, { inCart: inCart.has(id) }),
      inCart: inCart.has(id),
      requestIds: requestIds.get(id) ?? [],
    });
  }
  return out;
}
