/**
 * Password hashing with bcrypt (cost BCRYPT_COST). An unknown user still costs one bcrypt compare
 * (against a dummy hash of the same cost), so timing does not tell unknown addresses apart.
 */
import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { config } from '#lib/config.ts';

export function hashPassword(password: string, cost: number = config.BCRYPT_COST): Promise<string> {
  return bcrypt.hash(password, cost);
}

const dummyHashes = new Map<number, Promise<string>>();

/**
 * A hash of a random secret at this cost, made once per container on first use: nothing is hashed
 * at module load, so a cold start pays for bcrypt only when an unknown address logs in.
 */
function dummyHash(cost: number): Promise<string> {
  let hash = dummyHashes.get(cost);
  if (!hash) {
    hash = bcrypt.hash(randomBytes(18).toString('base64'), cost);
    dummyHashes.set(cost, hash);
  }
  return hash;
}

/**
 * Whether `password` matches `storedHash`. With no stored hash (unknown user) it compares against
 * a dummy hash anyway and answers false, taking about as long as a real check.
 */
export async function verifyPassword(
  password: string,
  storedHash: string | null,
  cost: number = config.BCRYPT_COST,
): Promise<boolean> {
  if (storedHash === null) {
    await bcrypt.compare(password, await dummyHash(cost));
    return false;
  }
  return bcrypt.compare(password, storedHash);
}

/** The cost a bcrypt hash was made with. */
export function costOf(hash: string): number {
  return bcrypt.getRounds(hash);
}

/** A stored hash made with a lower cost than today's is replaced at the next successful login. */
export function needsRehash(hash: string, cost: number = config.BCRYPT_COST): boolean {
  try {
    return costOf(hash) < cost;
  } catch {
    return false;
  }
}
