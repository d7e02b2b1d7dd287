import { argon2Sync } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import {
  argon2id,
  describeHash,
  hashPassword,
  needsRehash,
  verifyPassword,
} from '#lib/accounts/passwords.ts';

const cheap = { memoryKib: 64, passes: 1 };
/** bcrypt (cost 4) of 'correct horse': the earlier scheme, which no table holds and nothing verifies. */
const BCRYPT_HASH = '$2b$04$DIGFxvzVgruxeFDCSUiIz.N2oXDo1T097ksmuwuAX7qXoifRqh47y';

describe('password hashing (Argon2id)', () => {
  it('stores a PHC string with the parameters and verifies only the right password', async () => {
    const hash = await hashPassword('correct horse', cheap);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(describeHash(hash)).toMatchObject({ scheme: 'argon2id', params: cheap });
    expect(await verifyPassword('correct horse', hash, cheap)).toBe(true);
    expect(await verifyPassword('wrong horse', hash, cheap)).toBe(false);
    // a fresh salt every time
    expect(await hashPassword('correct horse', cheap)).not.toBe(hash);
  });

  it("is RFC 9106's Argon2id: the stored tag is what an independent derivation gives", async () => {
    const hash = await hashPassword('correct horse', cheap);
    const [, , , , salt, tag] = hash.split('$');
    const expected = argon2Sync('argon2id', {
      message: 'correct horse',
      nonce: Buffer.from(salt as string, 'base64'),
      parallelism: 1,
      tagLength: 32,
      memory: 64,
      passes: 1,
    });
    expect(Buffer.from(tag as string, 'base64').equals(expected)).toBe(true);
  });

  it('verifies with the parameters stored in the hash, not with today’s', async () => {
    const hash = await hashPassword('correct horse', { memoryKib: 128, passes: 2 });
    expect(await verifyPassword('correct horse', hash, cheap)).toBe(true);
  });

  it('refuses a hash it cannot read (a bcrypt hash too), and one asking for absurd memory, without deriving', async () => {
    const derive = vi.spyOn(argon2id, 'derive');
    try {
      expect(await verifyPassword('pw', 'not a hash', cheap)).toBe(false);
      expect(describeHash(BCRYPT_HASH)).toEqual({ scheme: 'unknown' });
      expect(await verifyPassword('correct horse', BCRYPT_HASH, cheap)).toBe(false);
      expect(needsRehash(BCRYPT_HASH, cheap)).toBe(false);
      const greedy = (await hashPassword('pw', cheap)).replace('m=64', 'm=9999999');
      expect(describeHash(greedy)).toEqual({ scheme: 'unknown' });
      derive.mockClear();
      expect(await verifyPassword('pw', greedy, cheap)).toBe(false);
      expect(derive).not.toHaveBeenCalled();
    } finally {
      derive.mockRestore();
    }
  });

  it('asks for a rehash for other parameters than today’s, not for today’s', async () => {
    expect(needsRehash(await hashPassword('pw', cheap), cheap)).toBe(false);
    expect(needsRehash(await hashPassword('pw', { memoryKib: 64, passes: 2 }), cheap)).toBe(true);
    expect(needsRehash(await hashPassword('pw', { memoryKib: 128, passes: 1 }), cheap)).toBe(true);
    expect(needsRehash('not a hash', cheap)).toBe(false);
  });

  it('derives once with today’s parameters when there is no stored hash (unknown user)', async () => {
    const derive = vi.spyOn(argon2id, 'derive');
    try {
      expect(await verifyPassword('a guess', null, cheap)).toBe(false);
      expect(derive).toHaveBeenCalledTimes(1);
      const [password, salt, params] = derive.mock.calls[0] ?? [];
      expect(password).toBe('a guess');
      expect(salt?.length).toBe(16);
      expect(params).toEqual(cheap);
    } finally {
      derive.mockRestore();
    }
  });
});
