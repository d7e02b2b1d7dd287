/** The audit log as admins read it: dashboard actions, newest first, with names, narrowed by a filter. */
import { type AuditFilter, type AuditRecord, listAuditEntries } from '#lib/db/audit.ts';
import { bookKey, userKey } from '#lib/db/keys.ts';
import { batchGet } from '#lib/table/batch.ts';
import type { Page } from '#lib/table/page.ts';
import type { AuditEntry } from './schemas.ts';

const SYSTEM = 'system:';

/**
 * The names a page of entries shows: its actors' and its user and book targets', read in one
 * BatchGet of at most two keys an entry (so a fixed number of calls per page); a user or book
 * that is gone has no name.
 */
async function namesOf(entries: AuditRecord[]): Promise<Map<string, string>> {
  const keys = entries.flatMap((e) => [
    ...(e.actor.startsWith(SYSTEM) ? [] : [userKey(e.actor)]),
    ...(e.target.kind === 'user' ? [userKey(e.target.id)] : []),
    ...(e.target.kind === 'book' ? [bookKey(e.target.id)] : []),
  ]);
  const items = keys.length === 0 ? [] : await batchGet<Record<string, unknown>>(keys);
  const names = new Map<string, string>();
  for (const i of items) {
    if (i.type === 'user') names.set(String(i.id), `${String(i.firstName)} ${String(i.lastName)}`.trim());
    if (i.type === 'book') names.set(String(i.id), String(i.name));
  }
  return names;
}

const actorName = (actor: string, names: Map<string, string>): string =>
  actor.startsWith(SYSTEM)
    ? `scheduled job: ${actor.slice(SYSTEM.length)}`
    : (names.get(actor) ?? 'deleted user');

export async function getAuditLog(
  limit: number,
  cursor: string | undefined,
  filter: AuditFilter = {},
): Promise<Page<AuditEntry>> {
  const page = await listAuditEntries(limit, cursor, filter);
  const names = await namesOf(page.items);
  const items: AuditEntry[] = page.items.map((r) => ({
    id: r.id,
    at: r.at,
    actor: r.actor,
    actorName: actorName(r.actor, names),
    targetName:
      r.target.kind === 'user' || r.target.kind === 'book' ? (names.get(r.target.id) ?? null) : null,
    action: r.action,
    target: { kind: r.target.kind, id: r.target.id },
    before: r.before,
    after: r.after,
    reason: r.reason ?? null,
  }));
  return { items, next: page.next };
}
