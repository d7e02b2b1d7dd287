import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { costOf, hashPassword, needsRehash, verifyPassword } from '#lib/accounts/passwords.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function timeOf(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

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

  it('spends about as long on an unknown user (dummy compare) as on a wrong password', async () => {
    const cost = 8;
    const hash = await hashPassword('the real password', cost);
    await verifyPassword('warm up', null, cost); // the dummy hash is made once per container
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await timeOf(() => verifyPassword('a wrong password', hash, cost)));
      unknown.push(await timeOf(() => verifyPassword('a wrong password', null, cost)));
    }
    expect(await verifyPassword('the real password', null, cost)).toBe(false);
    const ratio = median(unknown) / median(known);
    // Without the dummy compare an unknown user would take well under 1 % of the time; the wide
    // bounds leave room for a busy machine.
    expect(ratio).toBeGreaterThan(0.25);
    expect(ratio).toBeLessThan(4);
  }, 30_000);
});
