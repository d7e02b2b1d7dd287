/**
 * Opaque page cursors: a query's LastEvaluatedKey as base64url JSON. A cursor coming back from a
 * client is checked before use: exactly the key attributes of the index read, all strings, and
 * the index partition the caller is allowed to read (so a forged cursor cannot widen a query).
 */

export function encodeCursor(key: Record<string, unknown> | null): string | null {
  return key ? Buffer.from(JSON.stringify(key), 'utf8').toString('base64url') : null;
}

/** The start key a cursor stands for, or null when it is not a cursor of this index and partition. */
export function decodeCursor(
  cursor: string,
  expected: { index: 'gsi1' | 'gsi2' | 'gsi3'; partition: string },
): Record<string, string> | null {
  if (cursor.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const wanted = ['pk', 'sk', `${expected.index}pk`, `${expected.index}sk`].sort();
  const keys = Object.keys(record).sort();
  if (keys.length !== wanted.length || keys.some((k, i) => k !== wanted[i])) return null;
  if (!keys.every((k) => typeof record[k] === 'string' && (record[k] as string).length <= 1024)) return null;
  if (record[`${expected.index}pk`] !== expected.partition) return null;
  return record as Record<string, string>;
}
