/**
 * User factory: puts a UserRecord straight into the table and signs a token for it, so tests of
 * other areas need no sign-up flow. (Minimal on purpose; the accounts area has the real flow.)
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { db, TABLE } from '../../lib/db/client.ts';
import { userKey, usersIndex } from '../../lib/db/keys.ts';
import type { UserRecord } from '../../lib/db/records.ts';
import { signToken } from '../../lib/http/jwt.ts';

export interface TestUser {
  user: UserRecord;
  id: string;
  token: string;
}

export async function makeUser(overrides: Partial<UserRecord> = {}): Promise<TestUser> {
  const id = overrides.id ?? ulid();
  const email = `user-${id.toLowerCase()}@test.edu`;
  const user: UserRecord = {
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
    createdAt: new Date().toISOString(),
    passwordHash: 'not-a-real-hash',
    tokenVersion: 0,
    ...overrides,
  };
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: { ...userKey(id), ...usersIndex(user.createdAt, id), ...user },
    }),
  );
  const { token } = await signToken({ sub: id, role: user.permissionType, tv: user.tokenVersion });
  return { user, id, token };
}
