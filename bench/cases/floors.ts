/**
 * Raw DynamoDB calls shared by the cases' floors, written with the key builders of lib/db/keys.ts
 * and a plain DocumentClient (no middlewares).
 */

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { previousWindow, type ThrottlePolicy, throttleWindow } from '#lib/accounts/rules.ts';
import { cartItemKey, listingPartitions, userKey } from '#lib/db/keys.ts';
import { addToWindowIfBelow, countInWindow } from '#lib/db/throttle.ts';
import { BatchGetCommand, GetCommand, QueryCommand } from '#lib/table/commands.ts';

/**
 * The auth layer's read of every authenticated request: the user's auth state, projected and
 * strongly consistent (a role or password change applies at once: lib/db/users.ts), so 1 unit.
 */
export const authGet = (client: DynamoDBDocumentClient, table: string, userId: string) =>
  client.send(
    new GetCommand({
      TableName: table,
      Key: userKey(userId),
      ProjectionExpression: 'id, permissionType, tokenVersion, campus, emailNormalised, blockedIds',
      ConsistentRead: true,
    }),
  );

/**
 * One Query of a partition of the table (or of `index`: its key is `<index>pk`), newest first, up to
 * `limit` items, without the books of `excludeOwner` when given. `listing`: a listing's or the
 * search index's Query, which (as every listing Query of lib/db/books.ts) filters out the books
 * reports hid, so DynamoDB evaluates the same filter for the floor as for the endpoint.
 */
export const newestFirst = (
  client: DynamoDBDocumentClient,
  table: string,
  q: { index?: string; pk: string; limit: number; excludeOwner?: string | undefined; listing?: boolean },
) => {
  const filters = [
    ...(q.listing ? ['attribute_not_exists(#hidden)'] : []),
    ...(q.excludeOwner ? ['ownerId <> :me'] : []),
  ];
  return client.send(
    new QueryCommand({
      TableName: table,
      ...(q.index ? { IndexName: q.index } : {}),
      KeyConditionExpression: `${q.index ?? ''}pk = :pk`,
      ExpressionAttributeValues: { ':pk': q.pk, ...(q.excludeOwner ? { ':me': q.excludeOwner } : {}) },
      ...(filters.length > 0 ? { FilterExpression: filters.join(' AND ') } : {}),
      ...(q.listing ? { ExpressionAttributeNames: { '#hidden': 'hidden' } } : {}),
      ScanIndexForward: false,
      Limit: q.limit,
    }),
  );
};

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
      newestFirst(client, table, {
        index,
        pk,
        limit: Math.ceil(limit / pks.length) + 1,
        excludeOwner,
        listing: true,
      }),
    ),
  );
  return pages.flatMap((p) => p.Items ?? []);
};

/** The caller's cart entries of a page of books (one BatchGet of the keys, projected to `sk`). */
export const cartEntriesOf = (
  client: DynamoDBDocumentClient,
  table: string,
  userId: string,
  bookIds: string[],
) =>
  client.send(
    new BatchGetCommand({
      RequestItems: {
        [table]: { Keys: bookIds.map((id) => cartItemKey(userId, id)), ProjectionExpression: 'sk' },
      },
    }),
  );

/**
 * The two calls of a limited route's allowance (lib/accounts/throttle.ts): GetItem of the previous
 * window, conditional ADD on the current one; on a subject of the floor's own, without a limit,
 * so the floor never runs out.
 */
export async function allowanceFloor(policy: ThrottlePolicy, userId: string, now = new Date()) {
  const subject = `bench-floor-${userId}`;
  await countInWindow(policy.action, subject, previousWindow(policy, now));
  await addToWindowIfBelow(policy.action, subject, throttleWindow(policy, now), Number.MAX_SAFE_INTEGER);
}
