/** Reads for exportData that no other area needs: a user's orders as buyer (gsi2), every page. */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.ts';
import { INDEX, ordersOfBuyerPk } from './keys.ts';

export async function allOrdersOfBuyer(buyerId: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: TABLE,
        IndexName: INDEX.gsi2,
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': ordersOfBuyerPk(buyerId) },
        ExclusiveStartKey: start,
      }),
    );
    out.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}
