/**
 * Saved books: a user's pointers to books they keep an eye on (`USER#<uid>` / `SAVED#<bookId>`),
 * listed newest first on gsi1 and found from the book on gsi2 (its savers), and the user's count
 * of them (`USER#<uid>` / `SAVEDCOUNT`), moved in the same transaction as each save and unsave so
 * the limit holds under concurrent saves.
 */

import { TABLE } from '#lib/table/client.ts';
import { indexPageAfter, type Page, pagedList, queryAll, stripKeys, TimePosition } from '#lib/table/page.ts';
import { refusalOf, type TransactItem, TransactionRefused, tag, transactWrite } from '#lib/table/transact.ts';
import {
  INDEX,
  savedBookIndexes,
  savedBookKey,
  savedBooksOfUserPk,
  savedCountKey,
  saversOfBookPk,
} from './keys.ts';
import type { CartBookSnapshot, SavedBookRecord } from './records.ts';

export type SavePutResult = 'saved' | 'already' | 'full';

/** The transaction part that moves the saved count; up only while below `limit`. */
const savedCountMove = (userId: string, delta: number, limit?: number): TransactItem => ({
  Update: {
    TableName: TABLE,
    Key: savedCountKey(userId),
    UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :d, #type = :type',
    ...(limit === undefined
      ? {}
      : { ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit' }),
    ExpressionAttributeNames: { '#count': 'count', '#type': 'type' },
    ExpressionAttributeValues: {
      ':d': delta,
      ':zero': 0,
      ':type': 'savedCount',
      ...(limit === undefined ? {} : { ':limit': limit }),
    },
  },
});

/**
 * Saves a book for a user and counts it, in one transaction whose count condition holds `limit`
 * against concurrent saves: 'already' when it was saved before (nothing changes), 'full' at the limit.
 */
export async function putSavedBook(
  userId: string,
  snapshot: CartBookSnapshot,
  savedAt: string,
  limit: number,
): Promise<SavePutResult> {
  const record: SavedBookRecord = { type: 'savedBook', userId, bookId: snapshot.id, savedAt, snapshot };
  const outcome = await transactWrite([
    tag('item', {
      Put: {
        TableName: TABLE,
        Item: {
          ...savedBookKey(userId, snapshot.id),
          ...savedBookIndexes(userId, snapshot.id, savedAt),
          ...record,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }),
    tag('count', savedCountMove(userId, 1, limit)),
  ]);
  if (outcome.ok) return 'saved';
  if (refusalOf(outcome, 'item')?.code === 'ConditionalCheckFailed') return 'already';
  if (refusalOf(outcome, 'count')?.code === 'ConditionalCheckFailed') return 'full';
  throw new TransactionRefused(outcome.refused);
}

/** Unsaves a book and uncounts it (one transaction); false when it was not saved. */
export async function deleteSavedBook(userId: string, bookId: string): Promise<boolean> {
  const outcome = await transactWrite([
    tag('item', {
      Delete: {
        TableName: TABLE,
        Key: savedBookKey(userId, bookId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    }),
    tag('count', savedCountMove(userId, -1)),
  ]);
  if (outcome.ok) return true;
  if (refusalOf(outcome, 'item')?.code === 'ConditionalCheckFailed') return false;
  throw new TransactionRefused(outcome.refused);
}

/** A user's saved books, newest saved first (gsi1), one page after `after` (a position of this list). */
async function listSavedBooks(
  userId: string,
  limit: number,
  after: string | undefined,
): Promise<Page<SavedBookRecord>> {
  const keyOf = (bookId: string) => savedBookKey(userId, bookId);
  const page = await indexPageAfter('gsi1', savedBooksOfUserPk(userId), keyOf, limit, after);
  return { items: page.items.map((i) => stripKeys<SavedBookRecord>(i)), next: page.next };
}

/** A user's saved books, newest saved first, a page at a time (cursors signed for that user's list). */
export const listSavedBooksPage = pagedList((userId) => `saved:${userId}`, TimePosition, listSavedBooks);

/**
 * The users who saved a book (gsi2 `SAVERS#<bookId>`), at most `max` of them: the stream consumer
 * tells them when the book's price drops or it is sold or unlisted.
 */
export async function saversOf(bookId: string, max: number): Promise<string[]> {
  const items = await queryAll(
    {
      IndexName: INDEX.gsi2,
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': saversOfBookPk(bookId) },
      ProjectionExpression: 'userId',
    },
    max,
  );
  return items.map((i) => String(i.userId));
}
