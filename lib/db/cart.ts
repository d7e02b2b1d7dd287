/**
 * Cart repository: the cart items in a user's partition (`USER#<id>` / `CART#<bookId>`), and the
 * reads of the books they point at. A cart item is only a pointer: it never reserves the book.
 */

import { db, TABLE } from '#lib/table/client.ts';
import { PutCommand } from '#lib/table/commands.ts';
import { isConditionFailed } from '#lib/table/conditions.ts';
import { queryAll } from '#lib/table/page.ts';
import {
  refusalOf,
  type Tagged,
  type TransactItem,
  TransactionRefused,
  tag,
  transactWrite,
} from '#lib/table/transact.ts';
import { CART_PREFIX, cartCountKey, cartItemKey, userPartition } from './keys.ts';
import type { CartBookSnapshot, CartItemRecord } from './records.ts';

/** The user's cart items, oldest sort key first, reading at most `max` items (consistent). */
export async function listCartItems(userId: string, max: number): Promise<CartItemRecord[]> {
  const items = await queryAll(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': userPartition(userId), ':prefix': CART_PREFIX },
      ConsistentRead: true,
    },
    max,
  );
  return items as CartItemRecord[];
}

export type CartPutResult = 'added' | 'already' | 'full';

/** The transaction part that moves the cart's count (no condition: the item writes decide). */
export function cartCountMove(userId: string, delta: number): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: cartCountKey(userId),
      UpdateExpression: 'ADD #count :d SET #type = :type',
      ExpressionAttributeNames: { '#count': 'count', '#type': 'type' },
      ExpressionAttributeValues: { ':d': delta, ':type': 'cartCount' },
    },
  };
}

/**
 * The transaction items of putting a book in the cart: the item (only if absent) and the cart's
 * count, moved up only while below `limit`. A cart with no count yet (carts from before the
 * counter) starts at `itemsIfNew`, the number of items it holds, in the same update: no separate
 * write on every add just to create the count once.
 */
export function cartPutItems(
  userId: string,
  snapshot: CartBookSnapshot,
  addedAt: string,
  limit: number = Number.MAX_SAFE_INTEGER,
  itemsIfNew = 0,
): Tagged<'item' | 'count'>[] {
  const item: CartItemRecord = { type: 'cartItem', userId, bookId: snapshot.id, addedAt, snapshot };
  return [
    tag('item', {
      Put: {
        TableName: TABLE,
        Item: { ...cartItemKey(userId, snapshot.id), ...item },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }),
    tag('count', {
      Update: {
        TableName: TABLE,
        Key: cartCountKey(userId),
        UpdateExpression: 'SET #count = if_not_exists(#count, :existing) + :one, #type = :type',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
        ExpressionAttributeNames: { '#count': 'count', '#type': 'type' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':existing': itemsIfNew,
          ':limit': limit,
          ':type': 'cartCount',
        },
      },
    }),
  ];
}

/**
 * Puts a book in the cart and counts it, in one transaction whose count condition enforces
 * `limit` atomically: 'already' when it was there (nothing changes), 'full' at the limit.
 * `itemsIfNew`: what the count starts from when the cart has none yet (see cartPutItems).
 */
export async function putCartItem(
  userId: string,
  snapshot: CartBookSnapshot,
  addedAt: string,
  limit: number = Number.MAX_SAFE_INTEGER,
  itemsIfNew = 0,
): Promise<CartPutResult> {
  const outcome = await transactWrite(cartPutItems(userId, snapshot, addedAt, limit, itemsIfNew));
  if (outcome.ok) return 'added';
  if (refusalOf(outcome, 'item')?.code === 'ConditionalCheckFailed') return 'already';
  if (refusalOf(outcome, 'count')?.code === 'ConditionalCheckFailed') return 'full';
  throw new TransactionRefused(outcome.refused);
}

/**
 * Replaces the snapshot of a book still in the cart (its price at the time the buyer accepted it),
 * keeping when it was added; nothing when the item was removed meanwhile.
 */
export async function refreshCartItem(item: CartItemRecord, snapshot: CartBookSnapshot): Promise<void> {
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...cartItemKey(item.userId, item.bookId), ...item, snapshot },
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
  }
}

/** The transaction part that deletes a cart item that must still be there. */
const deleteCartItemOp = (userId: string, bookId: string): TransactItem => ({
  Delete: { TableName: TABLE, Key: cartItemKey(userId, bookId), ConditionExpression: 'attribute_exists(pk)' },
});

/** Takes a book out of the cart and uncounts it (one transaction); false when it was not there. */
export async function deleteCartItem(userId: string, bookId: string): Promise<boolean> {
  const outcome = await transactWrite([
    tag('item', deleteCartItemOp(userId, bookId)),
    tag('count', cartCountMove(userId, -1)),
  ]);
  if (outcome.ok) return true;
  if (refusalOf(outcome, 'item')?.code === 'ConditionalCheckFailed') return false;
  throw new TransactionRefused(outcome.refused);
}

/**
 * Deletes the given cart items and uncounts them in one transaction (at most 99 items); false
 * when one of them was removed meanwhile (nothing changes then: read the cart again).
 */
export async function deleteCartItems(userId: string, bookIds: string[]): Promise<boolean> {
  if (bookIds.length === 0) return true;
  const outcome = await transactWrite([
    ...bookIds.map((id) => tag('item', deleteCartItemOp(userId, id))),
    tag('count', cartCountMove(userId, -bookIds.length)),
  ]);
  return outcome.ok;
}
