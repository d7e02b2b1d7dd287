/**
 * Conditional writes that answer whether they happened: false when the condition failed (someone
 * else changed the item first, or it is gone), so callers of state machines read as `if (await ...)`.
 */

import { db, TABLE } from './client.ts';
import { PutCommand, type PutCommandInput, UpdateCommand, type UpdateCommandInput } from './commands.ts';
import { isConditionFailed } from './conditions.ts';

/** What `send` answers, or null when its condition failed. */
async function sentIf<T>(send: () => Promise<T>): Promise<T | null> {
  try {
    return await send();
  } catch (err) {
    if (isConditionFailed(err)) return null;
    throw err;
  }
}

/** One conditional UpdateItem; false when its condition failed. */
export const updateIf = async (input: UpdateCommandInput): Promise<boolean> =>
  (await sentIf(() => db.send(new UpdateCommand(input)))) !== null;

/**
 * One conditional UpdateItem that answers the attributes its `ReturnValues` asks for (empty when it
 * asks none); null when its condition failed.
 */
export const updateReturning = async (input: UpdateCommandInput): Promise<Record<string, unknown> | null> => {
  const out = await sentIf(() => db.send(new UpdateCommand(input)));
  return out && (out.Attributes ?? {});
};

/** One conditional PutItem; false when its condition failed. */
export const putIf = async (input: PutCommandInput): Promise<boolean> =>
  (await sentIf(() => db.send(new PutCommand(input)))) !== null;

/**
 * The UpdateItem that sets one attribute (`#a`) of the item at `key` to `value` (`:v`), only on
 * `condition` (by default: while the item exists), which may name `#a`, `:v` and its own `values`.
 */
export const setAttribute = (
  key: { pk: unknown; sk: unknown },
  name: string,
  value: unknown,
  on: { condition?: string; values?: Record<string, unknown> } = {},
): UpdateCommandInput => ({
  TableName: TABLE,
  Key: { pk: key.pk, sk: key.sk },
  UpdateExpression: 'SET #a = :v',
  ConditionExpression: on.condition ?? 'attribute_exists(pk)',
  ExpressionAttributeNames: { '#a': name },
  ExpressionAttributeValues: { ':v': value, ...on.values },
});
