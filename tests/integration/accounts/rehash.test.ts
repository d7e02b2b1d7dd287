import { vi } from 'vitest';

// This file hashes with 512 KiB and 1 pass (config is read once at load): other parameters than the planted hashes'.
vi.hoisted(() => {
  process.env.PASSWORD_HASH_MEMORY_KIB = '512';
  process.env.PASSWORD_HASH_PASSES = '1';
});

import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { handler as login } from '#functions/auth/login.ts';
import { handler as getUserData } from '#functions/user/get-user-data.ts';
import { describeHash, hashPassword, verifyPassword } from '#lib/accounts/passwords.ts';
import { config } from '#lib/config.ts';
import { getUser, upgradePasswordHash } from '#lib/db/users.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { invoke } from '#tests/helpers/lambda.ts';

const today = { memoryKib: 512, passes: 1 };

describe('rehash on login', () => {
  it.each([
    ['the earlier scheme (bcrypt)', (password: string) => bcrypt.hash(password, 4)],
    [
      'other Argon2id parameters',
      (password: string) => hashPassword(password, { memoryKib: 256, passes: 2 }),
    ],
  ])('replaces a hash of %s by one of today’s parameters, keeping tokens valid', async (_, plant) => {
    expect(config.PASSWORD_HASH_MEMORY_KIB).toBe(512);
    const { user, password, token, record } = await createConfirmedUser();
    expect(describeHash(record.passwordHash)).toMatchObject({ scheme: 'argon2id', params: today });
    const planted = await plant(password);
    await upgradePasswordHash(user.id, record.passwordHash, planted);
    expect((await getUser(user.id))?.passwordHash).toBe(planted);

    const res = await invoke(login, {
      method: 'POST',
      route: '/api/auth/login',
      body: { emailAddress: user.emailAddress, password },
    });
    expect(res.status).toBe(200);
    const stored = await getUser(user.id);
    expect(describeHash(stored?.passwordHash ?? '')).toMatchObject({ scheme: 'argon2id', params: today });
    expect(await verifyPassword(password, stored?.passwordHash ?? null)).toBe(true);
    expect(await verifyPassword('not the password', stored?.passwordHash ?? null)).toBe(false);
    expect(stored?.tokenVersion).toBe(0);
    expect((await invoke(getUserData, { route: '/api/user/getUserData', token })).status).toBe(200);
  });

  it('leaves a hash of today’s parameters alone', async () => {
    const { user, password, record } = await createConfirmedUser();
    await invoke(login, {
      method: 'POST',
      route: '/api/auth/login',
      body: { emailAddress: user.emailAddress, password },
    });
    expect((await getUser(user.id))?.passwordHash).toBe(record.passwordHash);
  });

  it('does not replace a bcrypt hash when the password is wrong', async () => {
    const { user, password, record } = await createConfirmedUser();
    const planted = await bcrypt.hash(password, 4);
    await upgradePasswordHash(user.id, record.passwordHash, planted);
    const res = await invoke(login, {
      method: 'POST',
      route: '/api/auth/login',
      body: { emailAddress: user.emailAddress, password: 'not the password' },
    });
    expect(res.status).toBe(401);
    expect((await getUser(user.id))?.passwordHash).toBe(planted);
  });
});
