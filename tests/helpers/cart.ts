/** Invokers of the cart and checkout handlers, and direct reads of what they write. */

import { handler as checkoutHandler } from '#functions/cart/checkout-cart.ts';
import { handler as addToCartHandler } from '#functions/user/add-to-cart.ts';
import { getGlobalStats } from '#lib/db/counters.ts';
import { INDEX, ordersByStatusPk, ordersOfBuyerPk, userStatsKey } from '#lib/db/keys.ts';
import type { OrderRecord } from '#lib/db/records.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand, QueryCommand } from '#lib/table/commands.ts';
import { queryPartition } from '#tests/helpers/query.ts';
import { invoke } from './lambda.ts';

export const addToCart = (token: string, bookId: string) =>
  invoke(addToCartHandler, { method: 'POST', route: '/api/user/addToCart', token, body: { bookId } });

export const checkout = (token: string, idempotencyKey?: string) =>
  invoke(checkoutHandler, {
    method: 'POST',
    route: '/api/books/checkoutCart',
    token,
    headers: idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey },
  });

export async function readItem(key: {
  pk: string;
  sk: string;
}): Promise<Record<string, unknown> | undefined> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }));
  return out.Item;
}

export const readUserStats = (userId: string) => readItem(userStatsKey(userId));
/** The service-wide counters, summed over their shards (lib/db/counters.ts). */
export const readGlobalStats = () => getGlobalStats();

/** Orders of a buyer (gsi2), oldest first. */
export async function ordersOf(buyerId: string): Promise<OrderRecord[]> {
  return (await queryPartition(ordersOfBuyerPk(buyerId), { index: 'gsi2' })) as unknown as OrderRecord[];
}

/** Every placed order in the table (gsi1 `ORDERS#1`). */
export async function placedOrders(): Promise<OrderRecord[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: INDEX.gsi1,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': ordersByStatusPk(1) },
    }),
  );
  return (out.Items ?? []) as OrderRecord[];
}
