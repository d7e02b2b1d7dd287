/**
 * Test users without the sign-up flow: a UserRecord put straight into the table (the current
 * TABLE_NAME: an integration file's own table, or the e2e server's) and a token for it.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { db, TABLE } from '../../lib/db/client.ts';
import { userKey, usersIndex } from '../../lib/db/keys.ts';
import type { UserRecord } from '../../lib/db/records.ts';
import { signToken } from '../../lib/http/jwt.ts';

export interface TestUser {
  id: string;
  token: string;
  record: UserRecord;
}

export function makeUserRecord(overrides: Partial<UserRecord> = {}): UserRecord {
  const id = overrides.id ?? ulid();
  const email = `user-${id.toLowerCase()}@test.edu`;
  return {
    type: 'user',
    id,
    emailAddress: email,
    emailNormalised: email,
    firstName: 'Ada',
    lastName: 'Lovelace',
    university: 'Test University',
    campusMailbox: 'Box 1',
    paymentUsername: '@ada',
    permissionType: 0,
    createdAt: new Date().toISOString(),
    passwordHash: 'not-a-real-hash',
    tokenVersion: 0,
    ...overrides,
  };
}

/** Stores a user and signs a token for it. */
export async function createUser(overrides: Partial<UserRecord> = {}): Promise<TestUser> {
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
