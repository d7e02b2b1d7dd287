/**
 * Users repository: the user record as stored. The accounts domain (lib/accounts) builds on it.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.ts';
import { userKey } from './keys.ts';

/** What the auth layer needs of a user on every authenticated request. */
export interface UserAuthState {
  id: string;
  permissionType: number;
  tokenVersion: number;
}

/** A user's auth state by id (one GetItem, projected), or null. */
export async function getUserAuthState(userId: string): Promise<UserAuthState | null> {
  const out = await db.send(
    new GetCommand({
      TableName: TABLE,
      Key: userKey(userId),
      ProjectionExpression: 'id, permissionType, tokenVersion',
    }),
  );
  const item = out.Item as Partial<UserAuthState> | undefined;
  if (!item?.id) return null;
  return { id: item.id, permissionType: item.permissionType ?? 0, tokenVersion: item.tokenVersion ?? 0 };
}
