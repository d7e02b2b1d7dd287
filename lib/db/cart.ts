/**
 * Cart repository: the cart items in a user's partition (`USER#<id>` / `CART#<bookId>`), and the
 * reads of the books they point at. A cart item is only a pointer: it never reserves the book.
 */
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchDelete } from './batch.ts';
import { db, TABLE } from './client.ts';
import { isConditionFailed } from './conditions.ts';
import { CART_PREFIX, cartItemKey, userPartition } from './keys.ts';
import type { CartBookSnapshot, CartItemRecord } from './records.ts';

/** The user's cart items, oldest sort key first, reading at most `max` items (consistent). */
export async function listCartItems(userId: string, max: number): Promise<CartItemRecord[]> {
  const items: CartItemRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': userPartition(userId), ':prefix': CART_PREFIX },
        ConsistentRead: true,
        Limit: max - items.length,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...((out.Items ?? []) as CartItemRecord[]));
    start = out.LastEvaluatedKey;
  } while (start && items.length < max);
  return items;
}

/** Puts a book in the cart; false when it was already there (nothing changes then). */
export async function putCartItem(
  userId: string,
  snapshot: CartBookSnapshot,
  addedAt: string,
): Promise<boolean> {
  const bookId = snapshot.id;
  const item: CartItemRecord = { type: 'cartItem', userId, bookId, addedAt, snapshot };
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...cartItemKey(userId, bookId), ...item },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/** Takes a book out of the cart; false when it was not there. */
export async function deleteCartItem(userId: string, bookId: string): Promise<boolean> {
  const out = await db.send(
    new DeleteCommand({ TableName: TABLE, Key: cartItemKey(userId, bookId), ReturnValues: 'ALL_OLD' }),
  );
  return out.Attributes !== undefined;
}

/** Deletes the given cart items (BatchWrite, 25 at a time, unprocessed items retried). */
export async function deleteCartItems(userId: string, bookIds: string[]): Promise<void> {
  await batchDelete(bookIds.map((id) => cartItemKey(userId, id)));
}
