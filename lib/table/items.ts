/**
 * One item by its key: the single GetItem and the single PutItem that the entities (lib/db) send
 * by hand otherwise. Each helper is exactly one call, so a request's call count stays what its
 * code reads like.
 */
import { db, TABLE } from './client.ts';
import { GetCommand, PutCommand } from './commands.ts';
import type { Item } from './page.ts';
import type { ItemKey } from './schema.ts';

export interface GetItemOptions {
  /** an eventually consistent read (half the cost): for caches and marks that may lag a moment */
  eventual?: boolean;
  /** the attributes to answer (a ProjectionExpression), all when absent */
  projection?: string;
}

/** One GetItem of the item at `key`, strongly consistent unless `eventual`; undefined when there is none. */
export async function getItem<T = Item>(key: ItemKey, options: GetItemOptions = {}): Promise<T | undefined> {
  const out = await db.send(
    new GetCommand({
      TableName: TABLE,
      Key: key,
      ...(options.projection ? { ProjectionExpression: options.projection } : {}),
      ...(options.eventual ? {} : { ConsistentRead: true }),
    }),
  );
  return out.Item as T | undefined;
}

/** One PutItem of `item` (its key among its attributes), replacing what was there. */
export async function putItem(item: Item): Promise<void> {
  await db.send(new PutCommand({ TableName: TABLE, Item: item }));
}

/**
 * One PutItem of `item` only where no item is yet: a ConditionalCheckFailedException when there is
 * one (for keys that are fresh random ids or hashes, where a clash is a bug, not a race).
 */
export async function putNew(item: Item): Promise<void> {
  await db.send(
    new PutCommand({ TableName: TABLE, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
  );
}
