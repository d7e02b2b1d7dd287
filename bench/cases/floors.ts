/**
 * Raw DynamoDB calls shared by the cases' floors, written with the key builders of lib/db/keys.ts
 * and a plain DocumentClient (no middlewares).
 */
import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { booksByStatusPk, INDEX, userKey } from '#lib/db/keys.ts';

/**
 * The auth layer's read of every authenticated request: the user's auth state, projected and
 * strongly consistent (a role or password change applies at once: lib/db/users.ts), so 1 unit.
 */
export const authGet = (client: DynamoDBDocumentClient, table: string, userId: string) =>
  client.send(
    new GetCommand({
      TableName: table,
      Key: userKey(userId),
      ProjectionExpression: 'id, permissionType, tokenVersion',
      ConsistentRead: true,
    }),
  );

/** One page of the public listing (gsi1 BOOKS#S0, newest first). */
export const listedPage = (
  client: DynamoDBDocumentClient,
  table: string,
  limit: number,
  excludeOwner?: string,
) =>
  client.send(
    new QueryCommand({
      TableName: table,
      IndexName: INDEX.gsi1,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: {
        ':pk': booksByStatusPk(0),
        ...(excludeOwner ? { ':me': excludeOwner } : {}),
      },
      ...(excludeOwner ? { FilterExpression: 'ownerId <> :me' } : {}),
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
