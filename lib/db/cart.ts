/**
 * Cart repository: the cart items in a user's partition (`USER#<id>` / `CART#<bookId>`), and the
 * reads of the books they point at. A cart item is only a pointer: it never reserves the book.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchDelete, batchGet } from './batch.ts';
import { db, TABLE } from './client.ts';
import { isConditionFailed } from './conditions.ts';
import { bookKey, CART_PREFIX, cartItemKey, userPartition } from './keys.ts';
import { type BookRecord, type CartBookSnapshot, type CartItemRecord, upgradeBook } from './records.ts';

/** A book by id (consistent read), or null. */
export async function getBookRecord(bookId: string): Promise<BookRecord | null> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: bookKey(bookId), ConsistentRead: true }));
  return out.Item ? (upgradeBook(out.Item) as unknown as BookRecord) : null;
}

/** Books by id (BatchGet, consistent, unprocessed keys retried); missing ones are absent from the map. */
export async function getBookRecords(bookIds: string[]): Promise<Map<string, BookRecord>> {
  const items = await batchGet<Record<string, unknown>>([...new Set(bookIds)].map(bookKey), {
    consistent: true,
  });
  return new Map(items.map((item) => [String(item.id), upgradeBook(item) as unknown as BookRecord]));
}

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
    for (const item of out.Items ?? []) {
      const snapshot = upgradeBook(item.snapshot ?? {}) as unknown as CartBookSnapshot;
      items.push({ ...(item as CartItemRecord), snapshot });
    }
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
