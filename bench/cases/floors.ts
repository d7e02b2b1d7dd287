/**
 * Raw DynamoDB calls shared by the cases' floors, written with the key builders of lib/db/keys.ts
 * and a plain DocumentClient (no middlewares).
 */
import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { listingPartitions, userKey } from '#lib/db/keys.ts';

/**
 * The auth layer's read of every authenticated request: the user's auth state, projected and
 * strongly consistent (a role or password change applies at once: lib/db/users.ts), so 1 unit.
 */
export const authGet = (client: DynamoDBDocumentClient, table: string, userId: string) =>
  client.send(
    new GetCommand({
      TableName: table,
      Key: userKey(userId),
      ProjectionExpression: 'id, permissionType, tokenVersion, campus, emailNormalised',
      ConsistentRead: true,
    }),
  );

/** One page of a campus's (or every campus's) listing: each shard newest first, in parallel. */
export const listedPage = async (
  client: DynamoDBDocumentClient,
  table: string,
  limit: number,
  campus: string,
  excludeOwner?: string,
) => {
  const { index, pks } = listingPartitions(campus);
  const pages = await Promise.all(
    pks.map((pk) =>
      client.send(
        new QueryCommand({
          TableName: table,
          IndexName: index,
          KeyConditionExpression: `${index}pk = :pk`,
          ExpressionAttributeValues: { ':pk': pk, ...(excludeOwner ? { ':me': excludeOwner } : {}) },
          ...(excludeOwner ? { FilterExpression: 'ownerId <> :me' } : {}),
          ScanIndexForward: false,
          Limit: Math.ceil(limit / pks.length) + 1,
        }),
      ),
    ),
  );
  return pages.flatMap((p) => p.Items ?? []);
};
