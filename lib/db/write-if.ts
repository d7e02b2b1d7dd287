/**
 * Conditional writes that answer whether they happened: false when the condition failed (someone
 * else changed the item first, or it is gone), so callers of state machines read as `if (await ...)`.
 */
import {
  PutCommand,
  type PutCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';
import { isConditionFailed } from './conditions.ts';

async function sentIf(send: () => Promise<unknown>): Promise<boolean> {
  try {
    await send();
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/** One conditional UpdateItem; false when its condition failed. */
export const updateIf = (input: UpdateCommandInput): Promise<boolean> =>
  sentIf(() => db.send(new UpdateCommand(input)));

/** One conditional PutItem; false when its condition failed. */
export const putIf = (input: PutCommandInput): Promise<boolean> =>
  sentIf(() => db.send(new PutCommand(input)));
