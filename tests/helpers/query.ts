/** Reading a partition straight from the table in tests: one helper instead of a Query per file. */

import { INDEX } from '#lib/db/keys.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { QueryCommand } from '#lib/table/commands.ts';

export interface PartitionQuery {
  /** an index (`gsi1`..), else the table's own key */
  index?: keyof typeof INDEX;
  /** on the table: only sort keys that start with this */
  beginsWith?: string;
  /** a strongly consistent read (the table only) */
  consistent?: boolean;
}

/** Every item under one partition key of the table or an index, all pages read. */
export async function queryPartition(pk: string, o: PartitionQuery = {}): Promise<Record<string, unknown>[]> {
  const pkName = o.index ? `${o.index}pk` : 'pk';
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new QueryCommand({
        TableName: TABLE,
        ...(o.index ? { IndexName: INDEX[o.index] } : {}),
        KeyConditionExpression: `${pkName} = :pk${o.beginsWith ? ' AND begins_with(sk, :p)' : ''}`,
        ExpressionAttributeValues: { ':pk': pk, ...(o.beginsWith ? { ':p': o.beginsWith } : {}) },
        ...(o.consistent ? { ConsistentRead: true } : {}),
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}
