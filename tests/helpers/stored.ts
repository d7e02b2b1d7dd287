/** Changing a stored item straight in the table in tests: a change made behind the code's back. */

import { REFRESH_GRACE_SECONDS } from '#lib/accounts/sessions.ts';
import { type ItemKey, refreshFamilyKey } from '#lib/db/keys.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { UpdateCommand } from '#lib/table/commands.ts';

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

/**
 * Dates a refresh family's last rotation back past the grace, as if the time had passed: its
 * current token rotates at the next refresh again (lib/accounts/sessions.ts).
 */
export async function ageRefreshFamily(refreshToken: string): Promise<void> {
  const rotatedAt = new Date(Date.now() - (REFRESH_GRACE_SECONDS + 5) * 1000).toISOString();
  await setStored(refreshFamilyKey(refreshToken.split('.')[0] as string), { rotatedAt });
}
