/** The audit log as admins read it: every dashboard action, newest first. */
import { listAuditEntries } from '#lib/db/audit.ts';
import type { Page } from '#lib/table/page.ts';
import type { AuditEntry } from './schemas.ts';

export async function getAuditLog(limit: number, cursor: string | undefined): Promise<Page<AuditEntry>> {
  const page = await listAuditEntries(limit, cursor);
  const items: AuditEntry[] = page.items.map((r) => ({
    id: r.id,
    at: r.at,
    actor: r.actor,
    action: r.action,
    target: { kind: r.target.kind, id: r.target.id },
    before: r.before,
    after: r.after,
    reason: r.reason ?? null,
  }));
  return { items, next: page.next };
}
