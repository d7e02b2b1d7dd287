/**
 * Users repository: the user record (USER#<id> / PROFILE, on gsi1 `USERS`), the e-mail uniqueness
 * item (EMAIL#<address> / EMAIL) and the user's counters (USER#<id> / STATS). Every write that
 * creates a user or changes a profile lives here, so index items that follow a profile (e.g. name
 * search) can be added in one place.
 */

import { batchGet } from '#lib/table/batch.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { type Page, queryGsi1Page, stripKeys } from '#lib/table/page.ts';
import { type TransactItem, tag, tagAll, transactOrThrow, transactWrite } from '#lib/table/transact.ts';
import { updateIf, updateReturning } from '#lib/table/write-if.ts';
import { campusOfUser } from '#lib/values/campus.ts';
import type { EmailPreferences } from '#lib/values/preferences.ts';
import type { AuditRecord } from './audit.ts';
import { auditPutOp } from './audit.ts';
import { newUserCounterItems } from './counters.ts';
import { emailKey, USERS_INDEX_PK, userKey, usersIndex } from './keys.ts';
import { PREFERENCES_PROJECTION, storedPreferences } from './preferences.ts';
import type { UserRecord } from './records.ts';
import { consumeTokenOp, spentTokenPutOp } from './tokens.ts';

/** What the auth layer needs of a user on every authenticated request. */
export interface UserAuthState {
  id: string;
  permissionType: number;
  tokenVersion: number;
  /** the user's campus (lib/values/campus.ts) */
  campus: string;
  /** the users this one blocked (kept on the profile by lib/db/conversations.ts putBlock) */
  blockedIds: string[];
}

/** EMAIL#<address> / EMAIL: makes an address unique; points at its user. */
export interface EmailRecord {
  type: 'email';
  emailNormalised: string;
  userId: string;
}

/** A user's auth state by id (one GetItem, projected), or null. */
export async function getUserAuthState(userId: string): Promise<UserAuthState | null> {
  const out = await db.send(
    new GetCommand({
      TableName: TABLE,
      Key: userKey(userId),
      ProjectionExpression: 'id, permissionType, tokenVersion, campus, emailNormalised, blockedIds',
      // A role or password change must apply at once, also on DynamoDB (reads are eventual by default).
      ConsistentRead: true,
    }),
  );
  const item = out.Item as
    | (Partial<Omit<UserAuthState, 'blockedIds'>> & { emailNormalised?: string; blockedIds?: Set<string> })
    | undefined;
  if (!item?.id) return null;
  return {
    id: item.id,
    permissionType: item.permissionType ?? 0,
    tokenVersion: item.tokenVersion ?? 0,
    campus: campusOfUser(item),
    blockedIds: [...(item.blockedIds ?? [])].sort(),
  };
}

/** A stored user, with its campus (from its address when stored without one). */
const toUser = (item: Record<string, unknown> | undefined): UserRecord | null => {
  if (item?.type !== 'user') return null;
  const user = stripKeys<UserRecord>(item);
  return { ...user, campus: campusOfUser(user) };
};

/** A user by id (strongly consistent), or null. */
export async function getUser(userId: string): Promise<UserRecord | null> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: userKey(userId), ConsistentRead: true }));
  return toUser(out.Item);
}

/** The id of the user who owns an address (normalised), or null. */
export async function getUserIdByEmail(normalisedEmail: string): Promise<string | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: emailKey(normalisedEmail), ConsistentRead: true }),
  );
  return (out.Item as EmailRecord | undefined)?.userId ?? null;
}

/** A user by address (normalised): the uniqueness item, then the user. */
export async function getUserByEmail(normalisedEmail: string): Promise<UserRecord | null> {
  const userId = await getUserIdByEmail(normalisedEmail);
  return userId ? getUser(userId) : null;
}

/**
 * Creates a confirmed user from a pending sign-up, in one transaction: the sign-up token is consumed
 * (it must exist, be a `confirm` token and not have expired), the user and the e-mail uniqueness item
 * are written only if absent, the user's counters start at zero and totalUsers goes up by one.
 * 'rejected' when the token was used, expired or the address was taken meanwhile.
 */
export async function createUserFromSignup(
  user: UserRecord,
  tokenHash: string,
  now: Date,
): Promise<'created' | 'rejected'> {
  const emailItem: EmailRecord = { type: 'email', emailNormalised: user.emailNormalised, userId: user.id };
  const outcome = await transactWrite([
    tag('token', consumeTokenOp(tokenHash, 'confirm', now)),
    tag('spent', spentTokenPutOp(tokenHash, 'confirmed', now)),
    tag('user', {
      Put: {
        TableName: TABLE,
        Item: { ...userKey(user.id), ...usersIndex(user.createdAt, user.id), ...user },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }),
    tag('email', {
      Put: {
        TableName: TABLE,
        Item: { ...emailKey(user.emailNormalised), ...emailItem },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }),
    ...tagAll('stats', newUserCounterItems(user.id)),
  ]);
  return outcome.ok ? 'created' : 'rejected';
}

export type ProfileChanges = Partial<
  Pick<UserRecord, 'firstName' | 'lastName' | 'university' | 'campusMailbox' | 'paymentUsername'>
>;

/** Changes profile fields of an existing user; returns the updated user, or null if there is none. */
export async function updateProfile(userId: string, changes: ProfileChanges): Promise<UserRecord | null> {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return getUser(userId);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = entries.map(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    return `#f${i} = :v${i}`;
  });
  const updated = await updateReturning({
    TableName: TABLE,
    Key: userKey(userId),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValues: 'ALL_NEW',
  });
  return updated && toUser(updated);
}

/** A new password hash and the next token version, if the token version is still `tokenVersion`. */
const newPasswordOp = (userId: string, newHash: string, tokenVersion: number): TransactItem => ({
  Update: {
    TableName: TABLE,
    Key: userKey(userId),
    UpdateExpression: 'SET passwordHash = :hash ADD tokenVersion :one',
    ConditionExpression: 'attribute_exists(pk) AND tokenVersion = :tv',
    ExpressionAttributeValues: { ':hash': newHash, ':one': 1, ':tv': tokenVersion },
  },
});

/**
 * Sets a new password hash and bumps the token version (older tokens stop working), on condition
 * that the token version is still `expectedTokenVersion`, with the e-mail telling the user (`mail`,
 * lib/outbox/queue.ts mailOp) in the same transaction. The new version is `expectedTokenVersion + 1`;
 * false when the version moved on or the user is gone.
 */
export async function changePasswordHash(
  userId: string,
  newHash: string,
  expectedTokenVersion: number,
  mail: TransactItem,
): Promise<boolean> {
  const outcome = await transactWrite([
    tag('user', newPasswordOp(userId, newHash, expectedTokenVersion)),
    tag('mail', mail),
  ]);
  return outcome.ok;
}

/**
 * Bumps a user's token version (logout everywhere, a reused refresh token): every access token and
 * every refresh family issued before it fails its next use. False when the user is gone.
 */
export async function bumpTokenVersion(userId: string): Promise<boolean> {
  return updateIf({
    TableName: TABLE,
    Key: userKey(userId),
    UpdateExpression: 'ADD tokenVersion :one',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':one': 1 },
  });
}

/**
 * Consumes a reset token and sets the user's new password hash, bumping the token version, with the
 * e-mail telling the user (`mail`), in one transaction. False when the token was used or expired
 * meanwhile, the user is gone, or the user's token version moved on since the token was issued (a
 * reset or a password change revoked it).
 */
export async function resetPasswordWithToken(
  tokenHash: string,
  userId: string,
  issuedAtTokenVersion: number,
  newHash: string,
  mail: TransactItem,
  now: Date,
): Promise<boolean> {
  const outcome = await transactWrite([
    tag('token', consumeTokenOp(tokenHash, 'reset', now)),
    tag('user', newPasswordOp(userId, newHash, issuedAtTokenVersion)),
    tag('mail', mail),
  ]);
  return outcome.ok;
}

/**
 * Replaces a password hash by a stronger hash of the same password (rehash on login). Does nothing
 * if the hash changed meanwhile; the token version stays (same password).
 */
export async function upgradePasswordHash(userId: string, oldHash: string, newHash: string): Promise<void> {
  await updateIf({
    TableName: TABLE,
    Key: userKey(userId),
    UpdateExpression: 'SET passwordHash = :new',
    ConditionExpression: 'passwordHash = :old',
    ExpressionAttributeValues: { ':new': newHash, ':old': oldHash },
  });
}

/** Sets a user's role (0 user, 1 admin, 2 owner); returns the updated user, or null if there is none. */
export async function setPermissionType(userId: string, permissionType: number): Promise<UserRecord | null> {
  const updated = await updateReturning({
    TableName: TABLE,
    Key: userKey(userId),
    UpdateExpression: 'SET permissionType = :p',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':p': permissionType },
    ReturnValues: 'ALL_NEW',
  });
  return updated && toUser(updated);
}

/** Users by id (BatchGet; missing ones are left out). */
export async function getUsersById(ids: string[]): Promise<Map<string, UserRecord>> {
  const items = await batchGet(ids.map(userKey));
  const map = new Map<string, UserRecord>();
  for (const i of items) {
    const user = toUser(i);
    if (user) map.set(user.id, user);
  }
  return map;
}

export interface UserContact {
  emailAddress: string;
  firstName: string;
  /** the stored e-mail preferences (defaults not applied) */
  preferences: Partial<EmailPreferences>;
}

/** How to reach a user by e-mail and what they want to receive (one projected GetItem), or null. */
export async function getUserContact(userId: string): Promise<UserContact | null> {
  const out = await db.send(
    new GetCommand({
      TableName: TABLE,
      Key: userKey(userId),
      ProjectionExpression: `emailAddress, firstName, ${PREFERENCES_PROJECTION}`,
    }),
  );
  const item = out.Item as (Partial<UserContact> & Record<string, unknown>) | undefined;
  if (!item?.emailAddress) return null;
  return {
    emailAddress: item.emailAddress,
    firstName: item.firstName ?? '',
    preferences: storedPreferences(item),
  };
}

/** A user's first name (one projected GetItem), for display on their books; undefined if there is none. */
export async function getUserFirstName(userId: string): Promise<string | undefined> {
  return (await getUserListingInfo(userId))?.firstName;
}

/** What a new book or request takes from its owner: first name and campus (one projected GetItem). */
export async function getUserListingInfo(
  userId: string,
): Promise<{ firstName: string; campus: string } | null> {
  const out = await db.send(
    new GetCommand({
      TableName: TABLE,
      Key: userKey(userId),
      ProjectionExpression: 'firstName, campus, emailNormalised',
    }),
  );
  if (out.Item?.firstName === undefined) return null;
  return { firstName: String(out.Item.firstName), campus: campusOfUser(out.Item) };
}

/** All users, oldest first, a page at a time (gsi1 `USERS`). */
export async function listUsers(limit: number, cursor: string | undefined): Promise<Page<UserRecord>> {
  return queryGsi1Page(USERS_INDEX_PK, userKey, { limit, cursor, forward: true }, (i) =>
    i.type === 'user' ? stripKeys<UserRecord>(i) : undefined,
  );
}

/** An update of a user record: what it changes, on what condition, with what values. */
export interface UserChange {
  UpdateExpression: string;
  ConditionExpression: string;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/**
 * One change of a user record by an admin (role, suspension) with its audit entry and the e-mail
 * telling the user (lib/outbox/queue.ts mailOp), in one transaction; TransactionRefused when the
 * condition failed.
 */
export async function changeUserWithAudit(
  userId: string,
  change: UserChange,
  audit: AuditRecord,
  mail: TransactItem,
): Promise<void> {
  await transactOrThrow([
    tag('user', { Update: { TableName: TABLE, Key: userKey(userId), ...change } }),
    tag('audit', auditPutOp(audit)),
    tag('mail', mail),
  ]);
}

/**
 * Changes a user's role from `from` to `to` with its audit entry and the e-mail telling them;
 * TransactionRefused otherwise.
 */
export async function changeRole(
  userId: string,
  from: number,
  to: number,
  audit: AuditRecord,
  mail: TransactItem,
): Promise<void> {
  const change = {
    UpdateExpression: 'SET permissionType = :to',
    ConditionExpression: 'attribute_exists(pk) AND permissionType = :from',
    ExpressionAttributeValues: { ':from': from, ':to': to },
  };
  await changeUserWithAudit(userId, change, audit, mail);
}
