/** getUserMatches: listed books matched to the caller's requests, newest first. */

import { DEFAULT_PAGE } from '#lib/books/inputs.ts';
import { Book, toApiBook } from '#lib/books/schemas.ts';
import { inCartIds } from '#lib/db/books.ts';
import { listMatchesOfUser } from '#lib/db/matches.ts';
import type { BookRecord } from '#lib/db/records.ts';
import * as z from '#lib/zod.ts';

/**
 * At most this many stored matches are read per call (newest first): up to this many books, a
 * listing page's worth, so the read costs what a listing page costs (each match carries its book's
 * list fields, about the size of a listed book's index item).
 */
export const MATCHES_READ_LIMIT = DEFAULT_PAGE;

export const MatchedBook = z.extend(Book, {
  inCart: z.boolean(),
  requestIds: z.array(z.string()).check(z.minLength(1)),
});
export type MatchedBook = z.infer<typeof MatchedBook>;

/**
 * Reads the caller's newest matches (one Query: each carries its book's list fields, kept in step
 * by the stream consumer) and the caller's cart entries for those books (one BatchGet). A book
 * that leaves the listing leaves the answer once the consumer deleted its matches.
 */
export async function getUserMatches(
  userId: string,
  blockedIds: readonly string[] = [],
): Promise<MatchedBook[]> {
  const matches = await listMatchesOfUser(userId, MATCHES_READ_LIMIT);
  const order: string[] = [];
  const requestIds = new Map<string, string[]>();
  const carried = new Map<string, BookRecord>();
  for (const m of matches) {
    if (!carried.has(m.bookId)) carried.set(m.bookId, m.book);
    const ids = requestIds.get(m.bookId);
    if (ids) {
      if (!ids.includes(m.requestId)) ids.push(m.requestId);
    } else {
      requestIds.set(m.bookId, [m.requestId]);
      order.push(m.bookId);
    }
  }
  if (order.length === 0) return [];
  const inCart = await inCartIds(userId, order);
  const out: MatchedBook[] = [];
  for (const id of order) {
    const book = carried.get(id);
    // hidden: reported; a blocked seller's books stay out, as in browsing (matches made before the block)
    if (book?.status !== 0 || book.hidden || book.ownerId === userId || blockedIds.includes(book.ownerId))
      continue;
    out.push({
      ...toApiBook(book, { inCart: inCart.has(id) }),
      inCart: inCart.has(id),
      requestIds: requestIds.get(id) ?? [],
    });
  }
  return out;
}
