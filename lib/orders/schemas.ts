/**
 * Response schemas of checkout, purchase history and statistics. Money is shown in dollars
 * (at most 2 decimals); it is stored and summed in integer cents.
 */
import { z } from 'zod';
import { Book } from '#lib/books/schemas.ts';
import { CursorParam } from '#lib/db/cursor.ts';
import { IntParam } from '#lib/http/params.ts';

const Money = z.number().min(0).multipleOf(0.01);

/** One book of an order, as it was when bought. */
export const OrderBook = z.strictObject({
  id: z.string(),
  name: z.string(),
  edition: z.number().int(),
  course: z.string(),
  ISBN: z.string().nullable(),
  condition: z.string(),
  price: Money,
  owner: z.strictObject({ id: z.string(), firstName: z.string() }),
});

export const Order = z.strictObject({
  id: z.string(),
  buyer: z.strictObject({ id: z.string() }),
  books: z.array(OrderBook).min(1),
  subtotal: Money,
  fee: Money,
  total: Money,
  /** 1 = placed (its books are at status 1) */
  status: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type Order = z.infer<typeof Order>;

export const HistoryQuery = z.strictObject({
  limit: IntParam(1, 100).optional(),
  cursor: CursorParam.optional(),
});
export type HistoryQuery = z.infer<typeof HistoryQuery>;

/** A book the caller bought, with its current status. */
export const PurchasedBook = Book.extend({
  boughtAt: z.iso.datetime().nullable(),
  orderId: z.string().nullable(),
});
export type PurchasedBook = z.infer<typeof PurchasedBook>;

/** One of the caller's books that was bought, with its current status and buyer. */
export const SoldBook = Book.extend({ boughtAt: z.iso.datetime().nullable() });
export type SoldBook = z.infer<typeof SoldBook>;

export const UserStatistics = z.strictObject({
  numberOfBooksBought: z.number().int(),
  numberOfBooksSold: z.number().int(),
  /** dollars, from books that reached status 3 only */
  moneyMade: Money,
  activeListings: z.number().int(),
  openRequests: z.number().int(),
});
export type UserStatistics = z.infer<typeof UserStatistics>;
