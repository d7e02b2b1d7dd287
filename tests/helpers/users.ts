/** Test users: a stored UserRecord and a token for it. Unique data on every call. */

import { ulid } from 'ulid';
import { signToken } from '#lib/accounts/jwt.ts';
import { userKey, usersIndex } from '#lib/db/keys.ts';
import type { UserRecord } from '#lib/db/records.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { PutCommand } from '#lib/table/commands.ts';

export interface TestUser {
  id: string;
  token: string;
  record: UserRecord;
}

export function makeUserRecord(overrides: Partial<UserRecord> = {}): UserRecord {
  const id = overrides.id ?? ulid();
  const email = `user-${id.toLowerCase()}@test.edu`;
  const createdAt = new Date().toISOString();
  return {
    type: 'user',
    id,
    emailAddress: email,
    emailNormalised: email,
    firstName: 'Test',
    lastName: `User ${id.slice(-6)}`,
    university: 'Test University',
    campusMailbox: 'Box 1',
    paymentUsername: `pay-${id.slice(-6)}`,
    permissionType: 0,
    createdAt,
    passwordHash: '$argon2id$v=19$m=256,t=1,p=1$not-a-real-hash$for-tests-only',
    tokenVersion: 0,
    ...overrides,
  };
}

/** Stores a user (in the table of the current test file) and signs a token for it. */
export async function makeUser(overrides: Partial<UserRecord> = {}): Promise<TestUser> {
  const record = makeUserRecord(overrides);
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: { ...userKey(record.id), ...usersIndex(record.createdAt, record.id), ...record },
    }),
  );
  const { token } = await signToken({ sub: record.id, role: record.permissionType, tv: record.tokenVersion });
  return { id: record.id, token, record };
}
