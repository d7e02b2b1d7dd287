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
    | 'remindStuckPurchase'
    | 'resolveMessageReport';
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

const AuditPosition = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z#[0-9A-Z]{26}$/));

/** What the audit log may be narrowed to: who acted, what they did, and days (`YYYY-MM-DD`, UTC, inclusive). */
export interface AuditFilter {
  actor?: string | undefined;
  action?: AuditRecord['action'] | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** The cursors of one filtered log: a cursor of another filter is refused (400), not misread. */
const cursorsOf = (filter: AuditFilter): CursorScope => ({
  scope: `dashboard:audit:${filter.actor ?? ''}:${filter.action ?? ''}:${filter.from ?? ''}:${filter.to ?? ''}`,
  position: AuditPosition,
});

/**
 * One partition's Query of a filtered page: the days are a key range on the sort key
 * (`<iso time>#<id>`: `from` 00:00 up to the end of `to`, and below the cursor), who and what a
 * filter on the entries read, so a page may come out short with a cursor to go on; each Query
 * reads at most `limit` entries whatever the log's size.
 */
function auditQuery(pk: string, filter: AuditFilter, before: string | undefined, limit: number) {
  const upper = [before, filter.to ? `${filter.to}T24` : undefined].filter((v) => v !== undefined).sort()[0];
  const lower = filter.from ? `${filter.from}T00` : undefined;
  const key =
    lower && upper
      ? 'pk = :pk AND sk BETWEEN :lo AND :hi'
      : upper
        ? 'pk = :pk AND sk < :hi'
        : lower
          ? 'pk = :pk AND sk >= :lo'
          : 'pk = :pk';
  const filters = [
    ...(filter.actor ? ['actor = :actor'] : []),
    ...(filter.action ? ['#action = :action'] : []),
  ];
  return new QueryCommand({
    TableName: TABLE,
    KeyConditionExpression: key,
    ...(filters.length > 0 ? { FilterExpression: filters.join(' AND ') } : {}),
    ...(filter.action ? { ExpressionAttributeNames: { '#action': 'action' } } : {}),
    ExpressionAttributeValues: {
      ':pk': pk,
      ...(upper ? { ':hi': upper } : {}),
      ...(lower ? { ':lo': lower } : {}),
      ...(filter.actor ? { ':actor': filter.actor } : {}),
      ...(filter.action ? { ':action': filter.action } : {}),
    },
    ScanIndexForward: false,
    Limit: limit,
  });
}

/**
 * The audit log, newest first, a page at a time, merged from its partitions (lib/db/keys.ts
 * AUDIT_PARTITIONS): one Query per partition, in parallel, each reading ceil(limit / shards) + 1
 * entries older than the cursor. Entries are given out only down to the newest of the partitions'
 * last-read entries (among those with more to read), so no older entry can be missing from the page;
 * a page may hold fewer than `limit` entries, with a cursor for the rest. The cursor is the last
 * entry's sort key (MAC-bound to the filter), the same position in every partition.
 */
export async function listAuditEntries(
  limit: number,
  cursor: string | undefined,
  filter: AuditFilter = {},
): Promise<{ items: AuditRecord[]; next: string | null }> {
  const cursors = cursorsOf(filter);
  const before = positionOf(cursors, cursor);
  const perPartition = Math.ceil(limit / AUDIT_SHARDS) + 1;
  const reads = await Promise.all(
    AUDIT_PARTITIONS.map(async (pk) => {
      const out = await db.send(auditQuery(pk, filter, before, perPartition));
      // BETWEEN is inclusive: the cursor's own entry was on the previous page
      const items = ((out.Items ?? []) as Array<AuditRecord & { sk: string }>).filter((i) => i.sk !== before);
      // where the Query stopped (with a filter, past entries it read and left out)
      const stopped = out.LastEvaluatedKey?.sk;
      return { items, stopped: typeof stopped === 'string' ? stopped : undefined };
    }),
  );
  // Every entry newer than `frontier` has been read from every partition.
  const frontier = reads
    .flatMap((r) => (r.stopped === undefined ? [] : [r.stopped]))
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
  // a filtered page may be empty with more to read: it goes on from where every partition got to
  const last = page.at(-1)?.sk ?? frontier;
  return { items, next: more ? cursorAfter(cursors, last) : null };
}
