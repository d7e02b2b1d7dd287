/** How to reach a user by e-mail (one projected GetItem of the user record). */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.ts';
import { userKey } from './keys.ts';

export interface UserContact {
  emailAddress: string;
  firstName: string;
}

export async function getUserContact(userId: string): Promise<UserContact | null> {
  const out = await db.send(
    new GetCommand({
      TableName: TABLE,
      Key: userKey(userId),
      ProjectionExpression: 'emailAddress, firstName',
    }),
  );
  const item = out.Item as Partial<UserContact> | undefined;
  if (!item?.emailAddress) return null;
  return { emailAddress: item.emailAddress, firstName: item.firstName ?? '' };
}
