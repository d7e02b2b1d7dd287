/** Request and response schemas of the saved-books routes. */

import { Book } from '#lib/books/schemas.ts';
import { BookId } from '#lib/cart/schemas.ts';
import { CursorParam } from '#lib/table/cursor.ts';
import { IntParam } from '#lib/values/params.ts';
import * as z from '#lib/zod.ts';

export const SavedBookBody = z.strictObject({ bookId: BookId });
export type SavedBookBody = z.infer<typeof SavedBookBody>;

const Dollars = z.number().check(z.gte(0), z.multipleOf(0.01));

/**
 * A saved book as it is now (`price` is its current price), whether it can still be bought, when it
 * was saved and its price then. A book deleted for good or hidden by reports is shown as it was
 * when saved, unlisted.
 */
export const SavedBook = z.extend(Book, {
  available: z.boolean(),
  savedAt: z.iso.datetime(),
  priceWhenSaved: Dollars,
});
export type SavedBook = z.infer<typeof SavedBook>;

export const SavedBooksQuery = z.strictObject({
  limit: z.optional(IntParam(1, 100)),
  cursor: z.optional(CursorParam),
});
export type SavedBooksQuery = z.infer<typeof SavedBooksQuery>;

export const SaveBookResult = z.strictObject({
  bookId: z.string(),
  saved: z.literal(true),
  /** false when the book was already saved (nothing changed; answered with 200 instead of 201) */
  added: z.boolean(),
});

export const UnsaveBookResult = z.strictObject({
  bookId: z.string(),
  saved: z.literal(false),
  /** false when the book was not saved (nothing changed) */
  removed: z.boolean(),
});
