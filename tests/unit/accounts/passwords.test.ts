import bcrypt from 'bcryptjs';
import { describe, expect, it, vi } from 'vitest';
import { costOf, hashPassword, needsRehash, verifyPassword } from '#lib/accounts/passwords.ts';

describe('password hashing', () => {
  it('hashes with the requested bcrypt cost and verifies only the right password', async () => {
    const hash = await hashPassword('correct horse', 5);
    expect(costOf(hash)).toBe(5);
    expect(await verifyPassword('correct horse', hash, 5)).toBe(true);
    expect(await verifyPassword('wrong horse', hash, 5)).toBe(false);
  });

  it('asks for a rehash only when the stored cost is below the configured one', async () => {
    const cost4 = await bcrypt.hash('pw', 4);
    expect(needsRehash(cost4, 5)).toBe(true);
    expect(needsRehash(cost4, 4)).toBe(false);
    expect(needsRehash(await bcrypt.hash('pw', 6), 5)).toBe(false);
    expect(needsRehash('not a bcrypt hash', 10)).toBe(false);
  });

  it('compares against a dummy hash of the same cost when there is no stored hash (unknown user)', async () => {
    const compare = vi.spyOn(bcrypt, 'compare');
    try {
      expect(await verifyPassword('a guess', null, 5)).toBe(false);
      expect(compare).toHaveBeenCalledTimes(1);
      const [password, hash] = compare.mock.calls[0] ?? [];
      expect(password).toBe('a guess');
      expect(costOf(String(hash))).toBe(5);
      expect(await compare.mock.results[0]?.value).toBe(false);
    } finally {
      compare.mockRestore();
    }
  });
});
