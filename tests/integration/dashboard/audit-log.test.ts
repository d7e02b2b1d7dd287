/**
 * The audit log in partitions (lib/db/keys.ts AUDIT_PARTITIONS): entries spread over the shards,
 * and the merged reader gives every entry once, newest first, at a fixed number of calls per page.
 */

import { describe, expect, it } from 'vitest';
import { auditPutOp, listAuditEntries, newAuditRecord } from '#lib/db/audit.ts';
import { AUDIT_PARTITIONS, AUDIT_SHARDS, auditKey } from '#lib/db/keys.ts';
import { tag, transactWrite } from '#lib/table/transact.ts';
import { commandsOf } from '#tests/helpers/stream.ts';

const entry = (i: number) =>
  newAuditRecord({
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    actor: 'system:test',
    action: 'unlistBook',
    target: { kind: 'book', id: `B${i}` },
    before: { status: 0 },
    after: { status: 5 },
    reason: null,
  });

describe('the audit log in partitions', () => {
  it('spreads entries over its shards and reads them back once each, newest first, at most one Query per partition a page', async () => {
    const written = Array.from({ length: 60 }, (_, i) => entry(i));
    for (let i = 0; i < written.length; i += 20)
      await transactWrite(written.slice(i, i + 20).map((e) => tag('audit', auditPutOp(e))));

    const perShard = new Map<string, number>();
    for (const e of written) {
      const pk = auditKey(e.at, e.id).pk;
      perShard.set(pk, (perShard.get(pk) ?? 0) + 1);
    }
    expect(perShard.size).toBe(AUDIT_SHARDS);
    expect(Math.max(...perShard.values())).toBeLessThanOrEqual(30);

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      let page: Awaited<ReturnType<typeof listAuditEntries>> | undefined;
      const calls = await commandsOf(async () => {
        page = await listAuditEntries(7, cursor);
      });
      expect(calls).toHaveLength(AUDIT_PARTITIONS.length);
      // only the last page may be empty (a partition that gave exactly its limit may have no more)
      if (page?.next) expect(page.items.length).toBeGreaterThan(0);
      expect(page?.items.length).toBeLessThanOrEqual(7);
      seen.push(...(page?.items ?? []).map((e) => e.id));
      cursor = page?.next ?? undefined;
      pages++;
    } while (cursor && pages < 100);
    const all = [...written].sort((a, b) => (a.at < b.at ? 1 : -1)).map((e) => e.id);
    expect(seen).toEqual(all);
  });
});
