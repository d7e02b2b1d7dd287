/**
 * Password hashing with Argon2id, OWASP's first choice for password storage, by Node's own
 * `crypto.argon2` (native, run on libuv's thread pool). The parameters are PASSWORD_HASH_MEMORY_KIB
 * and PASSWORD_HASH_PASSES (default 19 MiB and 2 passes, OWASP's minimum; parallelism 1), and a
 * hash is stored in the PHC string format: `$argon2id$v=19$m=<KiB>,t=<passes>,p=1$<salt>$<hash>`.
 *
 * A hash of other parameters than today's still verifies, with its own, and login replaces it at the
 * next successful login (`needsRehash`). Any other string (the earlier bcrypt scheme's among them:
 * no table holds one) verifies nothing. An unknown user still costs one derivation with today's
 * parameters, so timing does not tell unknown addresses apart. docs/security.md ("Password
 * hashing") says why the scheme is Argon2id.
 */
import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { config } from '#lib/config.ts';

export interface HashParams {
  memoryKib: number;
  passes: number;
}

/** Today's parameters, from the configuration. */
export const configuredParams = (): HashParams => ({
  memoryKib: config.PASSWORD_HASH_MEMORY_KIB,
  passes: config.PASSWORD_HASH_PASSES,
});

const SALT_BYTES = 16;
const TAG_BYTES = 32;
/** The most memory a stored hash may ask for (a larger one is refused, not computed). */
const MAX_MEMORY_KIB = 1_048_576;

const derive = promisify(argon2);

/** The one place a password is derived: an object, so tests can count the derivations. */
export const argon2id = {
  derive(password: string, salt: Buffer, params: HashParams): Promise<Buffer> {
    return derive('argon2id', {
      message: password,
      nonce: salt,
      parallelism: 1,
      tagLength: TAG_BYTES,
      memory: params.memoryKib,
      passes: params.passes,
    });
  },
};

const b64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');

export async function hashPassword(
  password: string,
  params: HashParams = configuredParams(),
): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const tag = await argon2id.derive(password, salt, params);
  return `$argon2id$v=19$m=${params.memoryKib},t=${params.passes},p=1$${b64(salt)}$${b64(tag)}`;
}

const PHC =
  /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,2}),p=1\$([A-Za-z0-9+/]{11,64})\$([A-Za-z0-9+/]{22,128})$/;

/** What a stored hash is: Argon2id with its parameters, or something this code does not verify. */
export type StoredHash =
  | { scheme: 'argon2id'; params: HashParams; salt: Buffer; tag: Buffer }
  | { scheme: 'unknown' };

export function describeHash(hash: string): StoredHash {
  const a = PHC.exec(hash);
  if (a) {
    const params = { memoryKib: Number(a[1]), passes: Number(a[2]) };
    if (params.memoryKib >= 8 && params.memoryKib <= MAX_MEMORY_KIB && params.passes >= 1) {
      return {
        scheme: 'argon2id',
        params,
        salt: Buffer.from(a[3] as string, 'base64'),
        tag: Buffer.from(a[4] as string, 'base64'),
      };
    }
  }
  return { scheme: 'unknown' };
}

/**
 * Whether `password` matches `storedHash`. With no stored hash (unknown user) it derives one with
 * today's parameters anyway and answers false, taking as long as a real check.
 */
export async function verifyPassword(
  password: string,
  storedHash: string | null,
  params: HashParams = configuredParams(),
): Promise<boolean> {
  if (storedHash === null) {
    await argon2id.derive(password, randomBytes(SALT_BYTES), params);
    return false;
  }
  const stored = describeHash(storedHash);
  if (stored.scheme === 'argon2id') {
    const tag = await argon2id.derive(password, stored.salt, stored.params);
    return tag.length === stored.tag.length && timingSafeEqual(tag, stored.tag);
  }
  return false;
}

/** Whether a stored hash is replaced at the next successful login: one of other parameters than today's. */
export function needsRehash(hash: string, params: HashParams = configuredParams()): boolean {
  const stored = describeHash(hash);
  if (stored.scheme === 'argon2id') {
    return stored.params.memoryKib !== params.memoryKib || stored.params.passes !== params.passes;
  }
  return false;
}
