/**
 * Opaque page cursors for the dashboard's lists: base64url of the Query's LastEvaluatedKey.
 * Decoding is strict: the cursor must name exactly the key attributes of the index it was made
 * for, as strings, with the same partition; anything else is a 400, never a confusing page.
 */
import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { BadRequest } from '../http/errors.ts';

export type StartKey = Record<string, NativeAttributeValue>;

const MAX_CURSOR_LENGTH = 1024;

export function encodeCursor(key: StartKey | undefined): string | null {
  if (!key) return null;
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/**
 * The start key inside a cursor made for a Query on `partition` (an index with `pkName`/`skName`,
 * over a table keyed pk/sk). Undefined cursor -> undefined start key.
 */
export function decodeCursor(
  cursor: string | undefined,
  expected: { pkName: string; skName: string; partition: string },
): StartKey | undefined {
  if (cursor === undefined) return undefined;
  const bad = () =>
    new BadRequest('The cursor is invalid.', [{ field: 'cursor', message: 'Invalid cursor.' }]);
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor))
    throw bad();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad();
  const names = [...new Set(['pk', 'sk', expected.pkName, expected.skName])].sort();
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  if (keys.length !== names.length || keys.some((k, i) => k !== names[i])) throw bad();
  if (!keys.every((k) => typeof record[k] === 'string' && (record[k] as string).length > 0)) throw bad();
  if (record[expected.pkName] !== expected.partition) throw bad();
  return record as StartKey;
}
