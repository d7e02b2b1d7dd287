/** Batched reads and writes by key, in the sizes DynamoDB allows, retrying unprocessed keys. */

import { Busy } from '#lib/errors.ts';
import { db, TABLE } from './client.ts';
import { BatchGetCommand, BatchWriteCommand, type QueryCommandInput } from './commands.ts';
import { queryPages } from './page.ts';
import type { ItemKey } from './schema.ts';

const MAX_ATTEMPTS = 6;
const backoff = (attempt: number) => new Promise((r) => setTimeout(r, 25 * 2 ** attempt));

type Item = Record<string, unknown>;

/**
 * The items at `keys` (100 per BatchGetItem), in no particular order; missing keys are absent.
 * `projection` (a ProjectionExpression) reads only those attributes; `consistent` reads strongly.
 */
export async function batchGet<T = Item>(
  keys: ItemKey[],
  options: { projection?: string; consistent?: boolean } = {},
): Promise<T[]> {
  const out: T[] = [];
  const unique = [...new Map(keys.map((k) => [`${k.pk}\u0000${k.sk}`, k])).values()];
  for (let i = 0; i < unique.length; i += 100) {
    let pending: Item[] = unique.slice(i, i + 100).map((k) => ({ pk: k.pk, sk: k.sk }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= MAX_ATTEMPTS) throw new Busy(); // throttled past the retries: a 503, never a 500;
      if (attempt > 0) await backoff(attempt);
      const res = await db.send(
        new BatchGetCommand({
          RequestItems: {
            [TABLE]: {
              Keys: pending,
              ...(options.projection ? { ProjectionExpression: options.projection } : {}),
              ...(options.consistent ? { ConsistentRead: true } : {}),
            },
          },
        }),
      );
      out.push(...((res.Responses?.[TABLE] ?? []) as T[]));
      pending = (res.UnprocessedKeys?.[TABLE]?.Keys ?? []) as Item[];
    }
  }
  return out;
}

type WriteRequest = { DeleteRequest: { Key: Item } } | { PutRequest: { Item: Item } };

/** BatchWriteItem in chunks of 25. */
export async function batchWrite(requests: WriteRequest[]): Promise<void> {
  for (let i = 0; i < requests.length; i += 25) {
    let pending: WriteRequest[] = requests.slice(i, i + 25);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= MAX_ATTEMPTS) throw new Busy();
      if (attempt > 0) await backoff(attempt);
      const out = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE]: pending } }));
      pending = (out.UnprocessedItems?.[TABLE] ?? []) as WriteRequest[];
    }
  }
}

/** Deletes items by key (idempotent). */
export async function batchDelete(keys: ItemKey[]): Promise<void> {
  const unique = [...new Map(keys.map((k) => [`${k.pk}\u0000${k.sk}`, k])).values()];
  await batchWrite(unique.map((k) => ({ DeleteRequest: { Key: { pk: k.pk, sk: k.sk } } })));
}

/**
 * Deletes every item a Query finds, page by page (each page read as keys only, then deleted in
 * batches); returns how many. Idempotent.
 */
export async function deleteQueried(
  query: Omit<QueryCommandInput, 'TableName' | 'ProjectionExpression' | 'ExclusiveStartKey' | 'Limit'>,
): Promise<number> {
  let deleted = 0;
  for await (const page of queryPages({ ...query, ProjectionExpression: 'pk, sk' })) {
    await batchDelete(page as ItemKey[]);
    deleted += page.length;
  }
  return deleted;
}
