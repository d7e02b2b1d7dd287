/**
 * Response schemas of checkout, purchase history and statistics. Money is shown in dollars
 * (at most 2 decimals); it is stored and summed in integer cents.
 */

import { Book, BookStatusSchema, Photo } from '#lib/books/schemas.ts';
import { CursorParam } from '#lib/table/cursor.ts';
import { IdOf } from '#lib/values/ids.ts';
import { IntParam } from '#lib/values/params.ts';
import * as z from '#lib/zod.ts';
import { Handover } from './handover.ts';

const Money = z.number().check(z.gte(0), z.multipleOf(0.01));

/** One book of an order, as it was when bought. */
export const OrderBook = z.strictObject({
  id: z.string(),
  name: z.string(),
  edition: z.number().check(z.int()),
  course: z.string(),
  ISBN: z.nullable(z.string()),
  condition: z.string(),
  price: Money,
  owner: z.strictObject({ id: z.string(), firstName: z.string() }),
});

export const Order = z.strictObject({
  id: z.string(),
  buyer: z.strictObject({ id: z.string() }),
  books: z.array(OrderBook).check(z.minLength(1)),
  subtotal: Money,
  fee: Money,
  total: Money,
  /** 1 = placed (its books are at status 1) */
  status: z.number().check(z.int()),
  createdAt: z.iso.datetime(),
});
export type Order = z.infer<typeof Order>;

/** One dated step of a bought book (docs/handover.md "The order's timeline"). */
export const OrderStep = z.strictObject({
  /** bought: checked out; verified: checked by an admin and the buyer charged; delivered: handed over and the seller paid; cancelled: the purchase undone (a charge refunded) */
  step: z.enum(['bought', 'verified', 'delivered', 'cancelled']),
  /** when; null only for a step taken before its time was recorded */
  at: z.nullable(z.iso.datetime()),
  /** a cancellation's reason (the admin's words or the hand-over job's); null on other steps */
  reason: z.nullable(z.string()),
});
export type OrderStep = z.infer<typeof OrderStep>;

/** One book of one of the caller's orders (getOrder): as bought, with the book's status now. */
export const OrderBookNow = z.extend(OrderBook, {
  /** the book's status now (null once its seller deleted it after a cancelled purchase) */
  status: z.nullable(BookStatusSchema),
  /** whether an admin cancelled this book's purchase */
  cancelled: z.boolean(),
  /** this purchase's steps, oldest first: bought, then verified, delivered, or cancelled */
  timeline: z.array(OrderStep).check(z.minLength(1)),
  /** the book's processed photos now (none once its seller deleted it): its picture on the order page */
  photos: z.array(Photo),
  /** the cover its ISBN lookup found, the picture while there is no photo */
  coverUrl: z.optional(z.string().check(z.url())),
});

/** getOrder: one of the caller's orders (or their part of an order they sold in) with each book's current status. */
export const OrderWithStatus = z.extend(Order, {
  /** buyer: the whole order; seller: only the caller's books, `total` what they are paid for them (no fee) */
  viewer: z.enum(['buyer', 'seller']),
  /** the buyer; their first name only for a seller (the buyer knows their own) */
  buyer: z.strictObject({ id: z.string(), firstName: z.optional(z.string()) }),
  books: z.array(OrderBookNow).check(z.minLength(1)),
  /** per seller, the hand-over of their books in this order once one was proposed (docs/handover.md) */
  handovers: z.array(Handover),
  /**
   * the caller's conversation with each other side of the order (the buyer: each seller; a seller:
   * the buyer), `conversationId` null until one of them has written (askSeller, messageBuyer or a hand-over step)
   */
  conversations: z.array(z.strictObject({ userId: z.string(), conversationId: z.nullable(z.string()) })),
});
export type OrderWithStatus = z.infer<typeof OrderWithStatus>;

export const OrderIdParams = z.strictObject({
  orderId: IdOf('an order id'),
});

export const HistoryQuery = z.strictObject({
  limit: z.optional(IntParam(1, 100)),
  cursor: z.optional(CursorParam),
});
export type HistoryQuery = z.infer<typeof HistoryQuery>;

/** A book the caller bought, with its current status. */
export const PurchasedBook = z.extend(Book, {
  boughtAt: z.nullable(z.iso.datetime()),
  orderId: z.nullable(z.string()),
});
export type PurchasedBook = z.infer<typeof PurchasedBook>;

/** One of the caller's books that was bought, with its current status and buyer. */
export const SoldBook = z.extend(Book, {
  boughtAt: z.nullable(z.iso.datetime()),
  /** the order it was bought in: its seller's part opens with getOrder */
  orderId: z.nullable(z.string()),
});
export type SoldBook = z.infer<typeof SoldBook>;

export const UserStatistics = z.strictObject({
  numberOfBooksBought: z.number().check(z.int()),
  numberOfBooksSold: z.number().check(z.int()),
  /** dollars, from books that reached status 3 only */
  moneyMade: Money,
  activeListings: z.number().check(z.int()),
  openRequests: z.number().check(z.int()),
});
export type UserStatistics = z.infer<typeof UserStatistics>;
