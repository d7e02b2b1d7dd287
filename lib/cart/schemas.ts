/**
 * Request and response schemas of the cart endpoints.
 */

import { Book } from '#lib/books/schemas.ts';
import { IdOf } from '#lib/values/ids.ts';
import * as z from '#lib/zod.ts';

/** A book id as clients send it: opaque, but only characters ids are made of (no key syntax). */
export const BookId = IdOf('a book id');

export const CartBookBody = z.strictObject({ bookId: BookId });
export type CartBookBody = z.infer<typeof CartBookBody>;

/** A book in the cart, as it is now; `available: false` once it was bought, unlisted, deleted or is one's own. */
export const CartBook = z.extend(Book, { available: z.boolean() });
export type CartBook = z.infer<typeof CartBook>;

const Money = z.number().check(z.gte(0), z.multipleOf(0.01));

/** getCartItems: every cart book, and the money of checking out the available ones (dollars). */
export const CartContents = z.strictObject({
  items: z.array(CartBook),
  subtotal: Money,
  fee: Money,
  total: Money,
});
export type CartContents = z.infer<typeof CartContents>;

export const AddToCartResult = z.strictObject({
  bookId: z.string(),
  inCart: z.literal(true),
  /** false when the book was already in the cart (nothing changed) */
  added: z.boolean(),
  cartSize: z.number().check(z.int(), z.gte(0)),
});

export const RemoveFromCartResult = z.strictObject({
  bookId: z.string(),
  inCart: z.literal(false),
  /** false when the book was not in the cart (nothing changed) */
  removed: z.boolean(),
});

export const ClearCartResult = z.strictObject({ removed: z.number().check(z.int(), z.gte(0)) });
