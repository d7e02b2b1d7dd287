/** How to reach a user by e-mail, and what they want to receive (one projected GetItem of the user record). */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { EmailPreferences } from '#lib/preferences/schemas.ts';
import { db, TABLE } from './client.ts';
import { userKey } from './keys.ts';
import { PREFERENCES_PROJECTION, storedPreferences } from './preferences.ts';

export interface UserContact {
  emailAddress: string;
  firstName: string;
  /** the stored preferences (defaults not applied) */
  preferences: Partial<EmailPreferences>;
}

export async function getUserContact(userId: string): Promise<UserContact | null> {
  const out = await db.send(
    new GetCommand({
      TableName: TABLE,
      Key: userKey(userId),
      ProjectionExpression: `emailAddress, firstName, ${PREFERENCES_PROJECTION}`,
    }),
  );
  const item = out.Item as (Partial<UserContact> & Record<string, unknown>) | undefined;
  if (!item?.emailAddress) return null;
  return {
    emailAddress: item.emailAddress,
    firstName: item.firstName ?? '',
    preferences: storedPreferences(item),
  };
}
