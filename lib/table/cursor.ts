/**
 * Opaque page cursors: `<base64url(position)>.<base64url(HMAC)>`.
 *
 * A position is a sort key (`<date>#<id>`) inside ONE listing; the listing (its "scope", e.g. the
 * public listing or one search) is not in the cursor but in the MAC, so a cursor only works for
 * the listing that issued it, and a client cannot forge a position or move a cursor elsewhere.
 * The MAC key is derived from CURSOR_SECRET (its own secret, so public listings never hold JWT_SECRET). Anything not exactly right is a 400.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { secret } from '#lib/config.ts';
import { BadRequest } from '#lib/errors.ts';
import * as z from '#lib/zod.ts';

let cachedKey: Buffer | undefined;
const key = (): Buffer => {
  cachedKey ??= createHmac('sha256', secret('CURSOR_SECRET')).update('campus-books page cursor v1').digest();
  return cachedKey;
};
const MAC_BYTES = 16;

const mac = (scope: string, position: string): Buffer =>
  createHmac('sha256', key()).update(scope).update('\0').update(position).digest().subarray(0, MAC_BYTES);

/** The shape of a cursor in a query string (checked before it is decoded). */
export const CursorParam = z
  .string()
  .check(z.maxLength(400), z.regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'Invalid cursor.'));

export function encodeCursor(scope: string, position: string): string {
  return `${Buffer.from(position, 'utf8').toString('base64url')}.${mac(scope, position).toString('base64url')}`;
}

const invalid = () =>
  new BadRequest(
    'The cursor is invalid.',
    [{ field: 'cursor', in: 'query', message: 'Invalid cursor.' }],
    'VALIDATION_FAILED',
  );

/** The position in a cursor issued for `scope`; 400 if it was altered, forged or issued elsewhere. */
export function decodeCursor(scope: string, cursor: string, position: z.ZodMiniType<string>): string {
  const [p, m] = cursor.split('.');
  if (!p || !m) throw invalid();
  const raw = Buffer.from(p, 'base64url').toString('utf8');
  const given = Buffer.from(m, 'base64url');
  const expected = mac(scope, raw);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  const parsed = position.safeParse(raw);
  if (!parsed.success) throw invalid();
  return parsed.data;
}
