/** Changing a stored item straight in the table in tests: a change made behind the code's back. */

import { db, TABLE } from '#lib/db/client.ts';
import { UpdateCommand } from '#lib/db/commands.ts';
import type { ItemKey } from '#lib/db/keys.ts';

/** Sets top-level attributes of the item at `key` (any name, reserved words too), nothing else. */
export async function setStored(key: ItemKey, values: Record<string, unknown>): Promise<void> {
  const names = Object.keys(values);
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: key,
      UpdateExpression: `SET ${names.map((_name, i) => `#a${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, values[name]])),
    }),
  );
}
