import { vi } from 'vitest';

// This file runs with bcrypt cost 5, above the cost 4 of the hash it plants (config is read once at load).
vi.hoisted(() => {
  process.env.BCRYPT_COST = '5';
});

import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { handler as login } from '#functions/auth/login.ts';
import { handler as getUserData } from '#functions/user/get-user-data.ts';
import { costOf } from '#lib/accounts/passwords.ts';
import { config } from '#lib/config.ts';
import { getUser, upgradePasswordHash } from '#lib/db/users.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { invoke } from '#tests/helpers/lambda.ts';

describe('rehash on login', () => {
  it('replaces a hash made with a lower cost by one of the configured cost, keeping tokens valid', async () => {
    expect(config.BCRYPT_COST).toBe(5);
    const { user, password, token, record } = await createConfirmedUser();
    expect(costOf(record.passwordHash)).toBe(5);
    await upgradePasswordHash(user.id, record.passwordHash, await bcrypt.hash(password, 4));
    expect(costOf((await getUser(user.id))?.passwordHash ?? '')).toBe(4);

    const res = await invoke(login, {
      method: 'POST',
      route: '/api/auth/login',
      body: { emailAddress: user.emailAddress, password },
    });
    expect(res.status).toBe(200);
    const stored = await getUser(user.id);
    expect(costOf(stored?.passwordHash ?? '')).toBe(5);
    expect(await bcrypt.compare(password, stored?.passwordHash ?? '')).toBe(true);
    expect(stored?.tokenVersion).toBe(0);
    expect((await invoke(getUserData, { route: '/api/user/getUserData', token })).status).toBe(200);
  });

  it('leaves a hash of the configured cost alone', async () => {
    const { user, password, record } = await createConfirmedUser();
    await invoke(login, {
      method: 'POST',
      route: '/api/auth/login',
      body: { emailAddress: user.emailAddress, password },
    });
    expect((await getUser(user.id))?.passwordHash).toBe(record.passwordHash);
  });
});
