/**
 * Keeps the user search index (lib/db/user-search.ts) in step with user profiles: a stream
 * processor that, for every inserted, changed or removed `USER#<id>` / `PROFILE` item, writes the
 * search items of the new values and deletes those of values that are gone. Redelivered records
 * rewrite the same keys, so applying one twice changes nothing.
 */

import { isUserProfileKey, UserSearchField } from '#lib/db/keys.ts';
import { type SearchTerm, writeSearchTerms } from '#lib/db/user-search.ts';
import { listUsers } from '#lib/db/users.ts';
import type { ChangeProcessor, Item } from '#lib/streams/types.ts';
import { campusOfUser } from '#lib/values/campus.ts';
import { searchForm } from './rules.ts';

/** The search terms of one stored profile (none for anything that is not a user profile). */
export function termsOf(image: Item | undefined): SearchTerm[] {
  if (image?.type !== 'user' || typeof image.id !== 'string') return [];
  const userId = image.id;
  const terms: SearchTerm[] = [];
  const add = (field: SearchTerm['field'], raw: unknown) => {
    const value = searchForm(raw);
    if (value) terms.push({ field, value, userId });
  };
  add(UserSearchField.email, image.emailNormalised ?? image.emailAddress);
  add(UserSearchField.firstName, image.firstName);
  add(UserSearchField.lastName, image.lastName);
  // the campus domain (`rochester.edu`), so an admin can list one campus's users
  add(UserSearchField.campus, campusOfUser(image as { campus?: string; emailNormalised?: string }));
  return terms;
}

const id = (t: SearchTerm) => `${t.field}\u0000${t.value}\u0000${t.userId}`;

/** What to write and delete to move the index from the old image's terms to the new image's. */
export function diffTerms(oldImage: Item | undefined, newImage: Item | undefined) {
  const before = termsOf(oldImage);
  const after = termsOf(newImage);
  const afterIds = new Set(after.map(id));
  const beforeIds = new Set(before.map(id));
  return {
    put: after.filter((t) => !beforeIds.has(id(t))),
    remove: before.filter((t) => !afterIds.has(id(t))),
  };
}

export const userSearchProcessor: ChangeProcessor = {
  name: 'userSearch',
  wants: (c) => isUserProfileKey(c.keys),
  apply: async (c) => {
    const { put, remove } = diffTerms(c.oldImage, c.newImage);
    // A redelivered INSERT has no old image to diff against: writing its terms again is harmless.
    await writeSearchTerms(put, remove);
  },
};

/**
 * Writes the search items of every existing user (for users created before the processor ran,
 * e.g. after a first deploy): reads gsi1 `USERS` a page at a time, no Scan. Safe to run again.
 */
export async function backfillUserSearch(pageSize = 100): Promise<number> {
  let cursor: string | undefined;
  let users = 0;
  do {
    const page = await listUsers(pageSize, cursor);
    const terms = page.items.flatMap((u) => termsOf(u as unknown as Item));
    await writeSearchTerms(terms, []);
    users += page.items.length;
    cursor = page.next ?? undefined;
  } while (cursor);
  return users;
}
