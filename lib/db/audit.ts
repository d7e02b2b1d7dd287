/**
 * Audit log repository: `AUDIT#<0-3>` / `<iso time>#<ulid>`. Entries are written inside the transaction
 * of the change they describe (auditPutOp), never after it, so there is no change without its entry.
 */

import { ulid } from 'ulid';
import { db, TABLE } from '#lib/table/client.ts';
import { QueryCommand } from '#lib/table/commands.ts';
import { type CursorScope, cursorAfter, positionOf } from '#lib/table/page.ts';
import type { TransactItem } from '#lib/table/transact.ts';
import * as z from '#lib/zod.ts';
import { AUDIT_PARTITIONS, AUDIT_SHARDS, auditKey } from './keys.ts';

export type AuditValue = string | number | boolean | null;

/** AUDIT#<shard> / <at>#<id> */
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
    | 'reinstateUser'
    | 'readConversation'
    | 'reportMessage'
    | 'putHandoverPoint'
    | 'removeHandoverPoint'
    | 'remindStuckPurchase';
  target: { kind: 'book' | 'user' | 'conversation' | 'handoverPoint'; id: string };
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

const CURSORS: CursorScope = {
  scope: 'dashboard:audit',
  position: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z#[0-9A-Z]{26}$/)),
};

/**
 * The audit log, newest first, a page at a time, merged from its partitions (lib/db/keys.ts
 * AUDIT_PARTITIONS): one Query per partition, in parallel, each reading ceil(limit / shards) + 1
 * entries older than the cursor. Entries are given out only down to the newest of the partitions'
 * last-read entries (among those with more to read), so no older entry can be missing from the page;
 * a page may hold fewer than `limit` entries, with a cursor for the rest. The cursor is the last
 * entry's sort key (MAC-bound), the same position in every partition.
 */
export async function listAuditEntries(
  limit: number,
  cursor: string | undefined,
): Promise<{ items: AuditRecord[]; next: string | null }> {
  const before = positionOf(CURSORS, cursor);
  const perPartition = Math.ceil(limit / AUDIT_SHARDS) + 1;
  const reads = await Promise.all(
    AUDIT_PARTITIONS.map(async (pk) => {
      const out = await db.send(
        new QueryCommand({
          TableName: TABLE,
          KeyConditionExpression: before === undefined ? 'pk = :pk' : 'pk = :pk AND sk < :before',
          ExpressionAttributeValues: { ':pk': pk, ...(before === undefined ? {} : { ':before': before }) },
          ScanIndexForward: false,
          Limit: perPartition,
        }),
      );
      const items = (out.Items ?? []) as Array<AuditRecord & { sk: string }>;
      return { items, more: out.LastEvaluatedKey !== undefined };
    }),
  );
  // Every entry newer than `frontier` has been read from every partition.
  const frontier = reads
    .filter((r) => r.more && r.items.length > 0)
    .map((r) => (r.items.at(-1) as { sk: string }).sk)
    .reduce<string | undefined>((a, b) => (a === undefined || b > a ? b : a), undefined);
  const merged = reads
    .flatMap((r) => r.items)
    .filter((i) => frontier === undefined || i.sk >= frontier)
    .sort((a, b) => (a.sk < b.sk ? 1 : a.sk > b.sk ? -1 : 0));
  const page = merged.slice(0, limit);
  const more = merged.length > limit || frontier !== undefined;
  const items = page.map((i) => {
    const { pk: _pk, sk: _sk, ...rest } = i as AuditRecord & { pk: string; sk: string };
    return rest as AuditRecord;
  });
  const last = page.at(-1)?.sk;
  return { items, next: more ? cursorAfter(CURSORS, last) : null };
}
