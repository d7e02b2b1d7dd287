import { vi } from 'vitest';

// This file hashes with 512 KiB and 1 pass (config is read once at load): other parameters than the planted hashes'.
vi.hoisted(() => {
  process.env.PASSWORD_HASH_MEMORY_KIB = '512';
  process.env.PASSWORD_HASH_PASSES = '1';
});

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
  it('replaces a hash of other Argon2id parameters by one of today’s, keeping tokens valid', async () => {
    expect(config.PASSWORD_HASH_MEMORY_KIB).toBe(512);
    const { user, password, token, record } = await createConfirmedUser();
    expect(describeHash(record.passwordHash)).toMatchObject({ scheme: 'argon2id', params: today });
    const planted = await hashPassword(password, { memoryKib: 256, passes: 2 });
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

  it('does not replace a hash of other parameters when the password is wrong', async () => {
    const { user, password, record } = await createConfirmedUser();
    const planted = await hashPassword(password, { memoryKib: 256, passes: 2 });
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
