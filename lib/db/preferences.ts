/**
 * E-mail preferences, stored on the user record (USER#<id> / PROFILE) as `prefMatches`,
 * `prefPurchases`, `prefListings`, `prefMessages`, `prefSaved` (absent = the default), so the notifier reads them in the same
 * projected GetItem as the address, and deleting the user deletes them.
 */

import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand, UpdateCommand } from '#lib/table/commands.ts';
import { isConditionFailed } from '#lib/table/conditions.ts';
import type { EmailPreferences } from '#lib/values/preferences.ts';
import { userKey } from './keys.ts';

const ATTRIBUTE: Record<keyof EmailPreferences, string> = {
  matches: 'prefMatches',
  purchases: 'prefPurchases',
  listings: 'prefListings',
  messages: 'prefMessages',
  saved: 'prefSaved',
};

/** The projection that reads the stored preferences. */
export const PREFERENCES_PROJECTION = Object.values(ATTRIBUTE).join(', ');

/** The stored (partial) preferences of a user item (or a projection of it). */
export function storedPreferences(item: Record<string, unknown> | undefined): Partial<EmailPreferences> {
  const out: Partial<EmailPreferences> = {};
  if (!item) return out;
  if (item.prefMatches === 'each' || item.prefMatches === 'daily' || item.prefMatches === 'off')
    out.matches = item.prefMatches;
  if (typeof item.prefPurchases === 'boolean') out.purchases = item.prefPurchases;
  if (typeof item.prefListings === 'boolean') out.listings = item.prefListings;
  if (typeof item.prefMessages === 'boolean') out.messages = item.prefMessages;
  if (typeof item.prefSaved === 'boolean') out.saved = item.prefSaved;
  return out;
}

/** The stored preferences of a user, or null when there is no such user. */
export async function getPreferences(userId: string): Promise<Partial<EmailPreferences> | null> {
  const out = await db.send(
    new GetCommand({
      TableName: TABLE,
      Key: userKey(userId),
      ProjectionExpression: `id, ${PREFERENCES_PROJECTION}`,
      ConsistentRead: true,
    }),
  );
  return out.Item ? storedPreferences(out.Item) : null;
}

/**
 * Sets the given preferences on an existing user (one UpdateItem, never creates a user). Returns
 * the stored preferences after the change, or null when the user does not exist.
 */
export async function setPreferences(
  userId: string,
  change: Partial<EmailPreferences>,
): Promise<Partial<EmailPreferences> | null> {
  const entries = Object.entries(change).filter(([, v]) => v !== undefined) as [
    keyof EmailPreferences,
    unknown,
  ][];
  if (entries.length === 0) return getPreferences(userId);
  try {
    const out = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: userKey(userId),
        UpdateExpression: `SET ${entries.map(([k]) => `#${k} = :${k}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([k]) => [`#${k}`, ATTRIBUTE[k]])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([k, v]) => [`:${k}`, v])),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return storedPreferences(out.Attributes);
  } catch (err) {
    if (isConditionFailed(err)) return null;
    throw err;
  }
}
