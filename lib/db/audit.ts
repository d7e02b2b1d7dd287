/**
 * Audit log repository: `AUDIT` / `<iso time>#<ulid>`. Entries are written inside the transaction
 * of the change they describe (auditPutOp), never after it, so there is no change without its entry.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { decodeCursor, encodeCursor } from '#lib/db/cursor.ts';
import * as z from '#lib/zod.ts';
import { db, TABLE } from './client.ts';
import { AUDIT_PK, auditKey } from './keys.ts';
import type { TransactItem } from './transact.ts';

export type AuditValue = string | number | boolean | null;

/** AUDIT / <at>#<id> */
export interface AuditRecord {
  type: 'audit';
  id: string;
  /** ISO-8601 UTC */
  at: string;
  /** the acting user's id, or `system:<job>` for scheduled work */
  actor: string;
  action:
    | 'confirmBook'
    | 'setBookPaid'
    | 'cancelPurchase'
    | 'makeAdmin'
    | 'revokeAdmin'
    | 'unlistBook'
    | 'reportBook'
    | 'resolveReport'
    | 'suspendUser'
    | 'reinstateUser';
  target: { kind: 'book' | 'user'; id: string };
  before: Record<string, AuditValue>;
  after: Record<string, AuditValue>;
  reason: string | null;
}

export function newAuditRecord(fields: Omit<AuditRecord, 'type' | 'id'>): AuditRecord {
  return { type: 'audit', id: ulid(new Date(fields.at).getTime()), ...fields };
}

/** The Put of one audit entry, for a TransactWriteItems. */
export function auditPutOp(entry: AuditRecord): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: { ...auditKey(entry.at, entry.id), ...entry },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

const SCOPE = 'dashboard:audit';
const Position = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z#[0-9A-Z]{26}$/));

/** The audit log, newest first, a page at a time (cursor: the last entry's sort key, MAC-bound). */
export async function listAuditEntries(
  limit: number,
  cursor: string | undefined,
): Promise<{ items: AuditRecord[]; next: string | null }> {
  const start =
    cursor === undefined ? undefined : { pk: AUDIT_PK, sk: decodeCursor(SCOPE, cursor, Position) };
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': AUDIT_PK },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: start,
    }),
  );
  const items = (out.Items ?? []).map((i) => {
    const { pk: _pk, sk: _sk, ...rest } = i;
    return rest as AuditRecord;
  });
  const last = out.LastEvaluatedKey?.sk;
  return { items, next: typeof last === 'string' ? encodeCursor(SCOPE, last) : null };
}
