/**
 * The user search index behind findUsers: `USERSEARCH#E|F|L|C` / `<lower-cased value>#<userId>`,
 * written by the stream processor lib/dashboard/user-search.ts from user profiles (so the accounts code
 * does not know about it). Puts and deletes of these deterministic keys are idempotent.
 */

import { batchWrite } from '#lib/table/batch.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { QueryCommand } from '#lib/table/commands.ts';
import {
  type ItemKey,
  UserSearchField,
  type UserSearchFieldCode,
  userSearchKey,
  userSearchPk,
} from './keys.ts';

export interface SearchTerm {
  field: UserSearchFieldCode;
  value: string;
  userId: string;
}

const keyOf = (t: SearchTerm): ItemKey => userSearchKey(t.field, t.value, t.userId);

/** Writes and deletes index items (BatchWriteItem, 25 at a time, unprocessed items retried). */
export async function writeSearchTerms(put: SearchTerm[], remove: SearchTerm[]): Promise<void> {
  await batchWrite([
    ...put.map((t) => ({ PutRequest: { Item: { ...keyOf(t), type: 'userSearch', userId: t.userId } } })),
    ...remove.map((t) => ({ DeleteRequest: { Key: { ...keyOf(t) } } })),
  ]);
}

/**
 * Ids of users whose e-mail address, first name, last name or campus domain starts with `prefix`
 * (already lower-cased): one Query per field, at most `limit` each, e-mail matches first, then
 * names, then campus, no duplicates.
 */
export async function findUserIdsByPrefix(prefix: string, limit: number): Promise<string[]> {
  const fields = [
    UserSearchField.email,
    UserSearchField.firstName,
    UserSearchField.lastName,
    UserSearchField.campus,
  ];
  const pages = await Promise.all(
    fields.map((f) =>
      db.send(
        new QueryCommand({
          TableName: TABLE,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': userSearchPk(f), ':prefix': prefix },
          Limit: limit,
        }),
      ),
    ),
  );
  const ids: string[] = [];
  for (const page of pages) {
    for (const item of page.Items ?? []) {
      const id = String(item.userId);
      if (!ids.includes(id)) ids.push(id);
    }
  }
  return ids.slice(0, limit);
}
