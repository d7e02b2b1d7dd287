/**
 * Reads for exportData that no other area needs, each a walk of one partition: a user's orders as
 * buyer (gsi2), saved books and conversations (gsi1), one conversation's messages, and the
 * people a user blocks.
 */

import { indexPartition, queryAll } from '#lib/table/page.ts';
import {
  BLOCK_SK_PREFIX,
  conversationPartition,
  INDEX,
  inboxPk,
  MESSAGE_SK_PREFIX,
  ordersOfBuyerPk,
  savedBooksOfUserPk,
  userPartition,
} from './keys.ts';

export const allOrdersOfBuyer = (buyerId: string): Promise<Record<string, unknown>[]> =>
  queryAll({
    IndexName: INDEX.gsi2,
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': ordersOfBuyerPk(buyerId) },
  });

/** A user's saved books, newest saved first (at most SAVED_LIMIT are ever stored). */
export const allSavedOfUser = (userId: string): Promise<Record<string, unknown>[]> =>
  queryAll(indexPartition('gsi1', savedBooksOfUserPk(userId)));

/** A user's inbox entries (one a conversation), newest activity first, at most `max`. */
export const inboxEntriesOf = (userId: string, max: number): Promise<Record<string, unknown>[]> =>
  queryAll(indexPartition('gsi1', inboxPk(userId)), max);

/** One conversation's messages, oldest first, at most `max`. */
export const messagesOf = (conversationId: string, max: number): Promise<Record<string, unknown>[]> =>
  queryAll(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :msg)',
      ExpressionAttributeValues: { ':pk': conversationPartition(conversationId), ':msg': MESSAGE_SK_PREFIX },
    },
    max,
  );

/** The users a user blocks (`USER#<uid>` / `BLOCK#<id>`, at most MAX_BLOCKS). */
export const blocksOf = (userId: string): Promise<Record<string, unknown>[]> =>
  queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :block)',
    ExpressionAttributeValues: { ':pk': userPartition(userId), ':block': BLOCK_SK_PREFIX },
  });
