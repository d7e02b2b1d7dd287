/**
 * Users repository: the user record (USER#<id> / PROFILE, on gsi1 `USERS`), the e-mail uniqueness
 * item (EMAIL#<address> / EMAIL) and the user's counters (USER#<id> / STATS). Every write that
 * creates a user or changes a profile lives here, so index items that follow a profile (e.g. name
 * search) can be added in one place.
 */
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Busy } from '#lib/errors.ts';
import { db, TABLE } from './client.ts';
import { isConditionFailed, isTransactionCancelled, isTransactionConflictOnly } from './errors.ts';
import { emailKey, globalStatsKey, userKey, userStatsKey, usersIndex } from './keys.ts';
import type { UserRecord } from './records.ts';
import { consumeTokenOp } from './tokens.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** What the auth layer needs of a user on every authenticated request. */
export interface UserAuthState {
  id: string;
  permissionType: number;
  tokenVersion: number;
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
      ProjectionExpression: 'id, permissionType, tokenVersion',
    }),
  );
  const item = out.Item as Partial<UserAuthState> | undefined;
  if (!item?.id) return null;
  return { id: item.id, permissionType: item.permissionType ?? 0, tokenVersion: item.tokenVersion ?? 0 };
}

function stripKeys(item: Record<string, unknown> | undefined): UserRecord | null {
  if (item?.type !== 'user') return null;
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g1s, ...record } = item;
  return record as unknown as UserRecord;
}

/** A user by id (strongly consistent), or null. */
export async function getUser(userId: string): Promise<UserRecord | null> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: userKey(userId), ConsistentRead: true }));
  return stripKeys(out.Item);
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

const MAX_CONFLICT_RETRIES = 3;

/** Runs a transaction, retrying when it lost only a race on a hot item (the global counters). */
async function transact(items: TransactItem[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (err) {
      if (!isTransactionConflictOnly(err)) throw err;
      if (attempt >= MAX_CONFLICT_RETRIES) throw new Busy();
      await new Promise((r) => setTimeout(r, 20 * 2 ** attempt + Math.random() * 20));
    }
  }
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
  try {
    await transact([
      consumeTokenOp(tokenHash, 'confirm', now),
      {
        Put: {
          TableName: TABLE,
          Item: { ...userKey(user.id), ...usersIndex(user.createdAt, user.id), ...user },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: TABLE,
          Item: { ...emailKey(user.emailNormalised), ...emailItem },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: TABLE,
          Key: userStatsKey(user.id),
          UpdateExpression:
            'SET #type = :type, booksBought = if_not_exists(booksBought, :zero), booksSold = if_not_exists(booksSold, :zero), moneyMade = if_not_exists(moneyMade, :zero), activeListings = if_not_exists(activeListings, :zero), openRequests = if_not_exists(openRequests, :zero)',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':type': 'userStats', ':zero': 0 },
        },
      },
      {
        Update: {
          TableName: TABLE,
          Key: globalStatsKey(),
          UpdateExpression: 'ADD totalUsers :one',
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
    ]);
    return 'created';
  } catch (err) {
    if (isTransactionCancelled(err)) return 'rejected';
    throw err;
  }
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
  try {
    const out = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: userKey(userId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys(out.Attributes);
  } catch (err) {
    if (isConditionFailed(err)) return null;
    throw err;
  }
}

/**
 * Sets a new password hash and bumps the token version (older tokens stop working), on condition
 * that the token version is still the one the caller saw. Returns the new version, or null.
 */
export async function changePasswordHash(
  userId: string,
  newHash: string,
  expectedTokenVersion: number,
): Promise<number | null> {
  try {
    const out = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: userKey(userId),
        UpdateExpression: 'SET passwordHash = :hash, tokenVersion = tokenVersion + :one',
        ConditionExpression: 'attribute_exists(pk) AND tokenVersion = :tv',
        ExpressionAttributeValues: { ':hash': newHash, ':one': 1, ':tv': expectedTokenVersion },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number((out.Attributes as { tokenVersion?: number } | undefined)?.tokenVersion);
  } catch (err) {
    if (isConditionFailed(err)) return null;
    throw err;
  }
}

/**
 * Consumes a reset token and sets the user's new password hash, bumping the token version, in one
 * transaction. False when the token was used or expired meanwhile, or the user is gone.
 */
export async function resetPasswordWithToken(
  tokenHash: string,
  userId: string,
  newHash: string,
  now: Date,
): Promise<boolean> {
  try {
    await transact([
      consumeTokenOp(tokenHash, 'reset', now),
      {
        Update: {
          TableName: TABLE,
          Key: userKey(userId),
          UpdateExpression: 'SET passwordHash = :hash ADD tokenVersion :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':hash': newHash, ':one': 1 },
        },
      },
    ]);
    return true;
  } catch (err) {
    if (isTransactionCancelled(err)) return false;
    throw err;
  }
}

/**
 * Replaces a password hash by a stronger hash of the same password (rehash on login). Does nothing
 * if the hash changed meanwhile; the token version stays (same password).
 */
export async function upgradePasswordHash(userId: string, oldHash: string, newHash: string): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: userKey(userId),
        UpdateExpression: 'SET passwordHash = :new',
        ConditionExpression: 'passwordHash = :old',
        ExpressionAttributeValues: { ':new': newHash, ':old': oldHash },
      }),
    );
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
  }
}

/** Sets a user's role (0 user, 1 admin, 2 owner); returns the updated user, or null if there is none. */
export async function setPermissionType(userId: string, permissionType: number): Promise<UserRecord | null> {
  try {
    const out = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: userKey(userId),
        UpdateExpression: 'SET permissionType = :p',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':p': permissionType },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys(out.Attributes);
  } catch (err) {
    if (isConditionFailed(err)) return null;
    throw err;
  }
}
