/**
 * Account deletions: the job item `DELETION#<userId>` / `DELETION` (phase and position reached, on
 * gsi1 `DELETIONS` by request time) and the writes a deletion makes. Starting one is one
 * transaction (profile and address item gone, job item written, totalUsers down); the rest is
 * paged by lib/privacy/deletion.ts, each step idempotent, so a run that stopped is resumed.
 *
 * Access patterns:
 *  - a deletion in progress by user                GetItem DELETION#<id> / DELETION
 *  - unfinished deletions, oldest first            Query gsi1 DELETIONS, sk before a time
 *  - what is left in a user's partition            Query USER#<id> (keys only), then BatchWrite
 */

import { batchDelete } from '#lib/table/batch.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { DeleteCommand, GetCommand, UpdateCommand } from '#lib/table/commands.ts';
import { queryAll } from '#lib/table/page.ts';
import { type TransactItem, tag, tagAll, transactWrite } from '#lib/table/transact.ts';
import { updateIf } from '#lib/table/write-if.ts';
import { counterItems } from './counters.ts';
import {
  ACCOUNT_DELETIONS_PK,
  accountDeletionIndex,
  accountDeletionKey,
  emailKey,
  INDEX,
  type ItemKey,
  orderKey,
  userKey,
  userPartition,
} from './keys.ts';
import type { OrderLineRecord } from './records.ts';

/** `books`: the user's books (position = gsi2sk reached); `partition`: everything under USER#<id>. */
export type DeletionPhase = 'books' | 'partition';

/** DELETION#<userId> / DELETION */
export interface AccountDeletionRecord {
  type: 'accountDeletion';
  userId: string;
  requestedAt: string;
  phase: DeletionPhase;
  after: string | null;
}

/**
 * Starts deleting a user, in one transaction: the profile goes (every token fails its next call,
 * login finds nobody), the address's uniqueness item goes (the address can sign up again), the job
 * item is written and totalUsers goes down. Only while the profile's token version is `tokenVersion`
 * and the address item is the user's; false otherwise (nothing written).
 */
export async function startAccountDeletion(
  user: { id: string; emailNormalised: string },
  tokenVersion: number,
  requestedAt: string,
  mail: TransactItem,
): Promise<boolean> {
  const job: AccountDeletionRecord = {
    type: 'accountDeletion',
    userId: user.id,
    requestedAt,
    phase: 'books',
    after: null,
  };
  const outcome = await transactWrite([
    tag('user', {
      Delete: {
        TableName: TABLE,
        Key: userKey(user.id),
        ConditionExpression: 'attribute_exists(pk) AND tokenVersion = :tv',
        ExpressionAttributeValues: { ':tv': tokenVersion },
      },
    }),
    tag('email', {
      Delete: {
        TableName: TABLE,
        Key: emailKey(user.emailNormalised),
        ConditionExpression: 'userId = :id',
        ExpressionAttributeValues: { ':id': user.id },
      },
    }),
    tag('job', {
      Put: {
        TableName: TABLE,
        Item: { ...accountDeletionKey(user.id), ...accountDeletionIndex(requestedAt, user.id), ...job },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }),
    ...tagAll('stats', counterItems({ global: { totalUsers: -1 } })),
    tag('mail', mail),
  ]);
  return outcome.ok;
}

/** The deletion in progress of a user, or null (none, or finished). */
export async function getAccountDeletion(userId: string): Promise<AccountDeletionRecord | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: accountDeletionKey(userId), ConsistentRead: true }),
  );
  return (out.Item as AccountDeletionRecord | undefined) ?? null;
}

/** Records the phase and position a deletion reached (only while it is in progress). */
export async function saveDeletionProgress(
  userId: string,
  phase: DeletionPhase,
  after: string | null,
): Promise<void> {
  // false: finished by another run meanwhile
  await updateIf({
    TableName: TABLE,
    Key: accountDeletionKey(userId),
    UpdateExpression: 'SET phase = :phase, #after = :after',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#after': 'after' },
    ExpressionAttributeValues: { ':phase': phase, ':after': after },
  });
}

/** Ends a deletion: its job item goes. */
export async function endAccountDeletion(userId: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: TABLE, Key: accountDeletionKey(userId) }));
}

/** Users whose deletion was requested before `before` and is unfinished, oldest first (one page). */
export async function unfinishedAccountDeletions(before: string, limit: number): Promise<string[]> {
  const unfinished = await queryAll(
    {
      IndexName: INDEX.gsi1,
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :before',
      ExpressionAttributeValues: { ':pk': ACCOUNT_DELETIONS_PK, ':before': before },
    },
    limit,
  );
  return unfinished.map((i) => String(i.userId));
}

/** Deletes up to `limit` of the items left in a user's partition (keys only); returns how many. */
export async function deleteUserItemsPage(userId: string, limit: number): Promise<number> {
  const query = {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': userPartition(userId) },
    ProjectionExpression: 'pk, sk',
  };
  const keys = (await queryAll(query, limit)) as ItemKey[];
  await batchDelete(keys);
  return keys.length;
}

/** Shows `sellerId` under `name` on every line of an order that is theirs (read, then one update). */
export async function renameOrderSeller(orderId: string, sellerId: string, name: string): Promise<void> {
  const out = await db.send(
    new GetCommand({
      TableName: TABLE,
      Key: orderKey(orderId),
      ProjectionExpression: 'books',
      ConsistentRead: true,
    }),
  );
  const lines = out.Item?.books as OrderLineRecord[] | undefined;
  if (!lines?.some((l) => l.sellerId === sellerId && l.sellerFirstName !== name)) return;
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: orderKey(orderId),
      UpdateExpression: 'SET books = :books',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: {
        ':books': lines.map((l) => (l.sellerId === sellerId ? { ...l, sellerFirstName: name } : l)),
      },
    }),
  );
}
