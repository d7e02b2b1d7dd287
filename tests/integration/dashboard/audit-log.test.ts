/**
 * getAuditLog with names and filters (issue 32 item 6): who acted and on whom or what, in words;
 * narrowed by actor, action and days, each filter's pages walked with its own cursors.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAuditLog } from '#functions/dashboard/get-audit-log.ts';
import { handler as makeAdmin } from '#functions/dashboard/make-admin.ts';
import { handler as revokeAdmin } from '#functions/dashboard/revoke-admin.ts';
import { AuditLog } from '#lib/dashboard/schemas.ts';
import { auditPutOp, newAuditRecord } from '#lib/db/audit.ts';
import { db } from '#lib/table/client.ts';
import { PutCommand } from '#lib/table/commands.ts';
import { measured, startMeasuring } from '#lib/table/metrics.ts';
import { putBook } from '#tests/helpers/books.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

let owner: TestUser;
let other: TestUser;
let promoted: TestUser;

const move = (h: typeof makeAdmin, path: string, by: TestUser, userId: string) =>
  invoke(h, { method: 'PUT', route: `/api/dashboard/${path}`, token: by.token, body: { userId } });

const log = (query: Record<string, string>, token = owner.token) =>
  invoke(getAuditLog, { route: '/api/dashboard/getAuditLog', token, query });

const entries = async (query: Record<string, string>) => {
  const res = await log(query);
  expect(res.status, JSON.stringify(query)).toBe(200);
  return { items: expectEnvelope(res.json(), AuditLog), next: res.json<{ next: string | null }>().next };
};

const today = () => new Date().toISOString().slice(0, 10);
const dayAfter = (day: string, n: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  owner = await makeUser({ permissionType: 2, firstName: 'Olga', lastName: 'Owner' });
  other = await makeUser({ permissionType: 2, firstName: 'Otto', lastName: 'Other' });
  promoted = await makeUser({ firstName: 'Pia', lastName: 'Promoted' });
  expect((await move(makeAdmin, 'makeAdmin', owner, promoted.id)).status).toBe(200);
  expect((await move(revokeAdmin, 'revokeAdmin', owner, promoted.id)).status).toBe(200);
  expect((await move(makeAdmin, 'makeAdmin', other, promoted.id)).status).toBe(200);
});

describe('getAuditLog: names and filters', () => {
  it("names who acted and the user acted on, and narrows to one actor's entries, newest first", async () => {
    const { items } = await entries({ actor: owner.id, limit: '100' });
    expect(items.map((e) => [e.action, e.actorName, e.target.id, e.targetName])).toEqual([
      ['revokeAdmin', 'Olga Owner', promoted.id, 'Pia Promoted'],
      ['makeAdmin', 'Olga Owner', promoted.id, 'Pia Promoted'],
    ]);
    const theirs = await entries({ actor: other.id });
    expect(theirs.items.map((e) => [e.action, e.actorName])).toEqual([['makeAdmin', 'Otto Other']]);
  });

  it('narrows to one action, and to days (UTC, inclusive)', async () => {
    const revoked = await entries({ action: 'revokeAdmin', limit: '100' });
    expect(revoked.items.length).toBeGreaterThan(0);
    expect(new Set(revoked.items.map((e) => e.action))).toEqual(new Set(['revokeAdmin']));
    expect(revoked.items.map((e) => e.actor)).toContain(owner.id);

    const day = today();
    expect((await entries({ actor: owner.id, from: day, to: day })).items).toHaveLength(2);
    expect((await entries({ actor: owner.id, from: dayAfter(day, 1) })).items).toEqual([]);
    expect((await entries({ actor: owner.id, to: dayAfter(day, -1) })).items).toEqual([]);
    expect((await entries({ actor: owner.id, action: 'makeAdmin', from: day })).items).toHaveLength(1);
  });

  it('walks a filtered log a page at a time, each entry once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const page = await entries(
        cursor ? { actor: owner.id, limit: '1', cursor } : { actor: owner.id, limit: '1' },
      );
      seen.push(...page.items.map((e) => e.action));
      cursor = page.next;
      if (!cursor) break;
    }
    expect(seen).toEqual(['revokeAdmin', 'makeAdmin']);
  });

  it("names a scheduled job, a book by its title, and a deleted actor as 'deleted user'", async () => {
    const book = await putBook({ ownerId: promoted.id, name: 'Audited Anatomy' });
    const at = new Date().toISOString();
    const ghost = `gone${Date.now().toString(36)}`;
    for (const actor of ['system:handoverJob', ghost]) {
      const entry = newAuditRecord({
        at,
        actor,
        action: 'cancelPurchase',
        target: { kind: 'book', id: book.id },
        before: { status: 1 },
        after: { status: 0 },
        reason: 'No hand-over agreed.',
      });
      const { Put } = auditPutOp(entry) as { Put: ConstructorParameters<typeof PutCommand>[0] };
      await db.send(new PutCommand(Put));
    }
    const job = await entries({ actor: 'system:handoverJob', from: at.slice(0, 10) });
    expect(job.items[0]).toMatchObject({
      actorName: 'scheduled job: handoverJob',
      targetName: 'Audited Anatomy',
    });
    const gone = await entries({ actor: ghost });
    expect(gone.items.map((e) => e.actorName)).toEqual(['deleted user']);
  });

  it('costs the sign-in read, one Query per partition and one BatchGet of the names', async () => {
    startMeasuring();
    await entries({ actor: owner.id });
    const commands = measured().operations.map((o) => o.command);
    expect(commands.filter((c) => c === 'Query')).toHaveLength(4);
    expect(commands.filter((c) => c === 'BatchGetItem')).toHaveLength(1);
    expect(commands).not.toContain('Scan');
  });

  it('refuses a bad filter or another filter’s cursor with 400 in plain words', async () => {
    const bad: Record<string, string>[] = [
      { action: 'dropTable' },
      { from: '27-11-2026' },
      { from: today(), to: dayAfter(today(), -1) },
      { actor: "x' OR 1=1" },
      { color: 'red' },
    ];
    for (const query of bad) {
      const res = await log(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(expectError(res.json(), 'VALIDATION_FAILED')).toBeTruthy();
    }
    expect((await log({ from: today(), to: dayAfter(today(), -1) })).body).toContain(
      'The first day comes after the last one.',
    );
    const first = await entries({ actor: owner.id, limit: '1' });
    expect(first.next).not.toBeNull();
    const reused = await log({ actor: other.id, limit: '1', cursor: first.next as string });
    expect(reused.status).toBe(400);
  });

  it('is for admins only', async () => {
    const student = await makeUser();
    expect((await log({}, student.token)).status).toBe(403);
  });
});
