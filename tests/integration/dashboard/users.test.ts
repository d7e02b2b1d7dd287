import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as findUsers } from '#functions/dashboard/find-users.ts';
import { handler as getAuditLog } from '#functions/dashboard/get-audit-log.ts';
import { handler as getUsers } from '#functions/dashboard/get-users.ts';
import { handler as makeAdmin } from '#functions/dashboard/make-admin.ts';
import { handler as revokeAdmin } from '#functions/dashboard/revoke-admin.ts';
import { processors } from '#functions/streams/processors.ts';
import { AdminUser, AuditLog, UserList } from '#lib/dashboard/schemas.ts';
import { userKey } from '#lib/db/keys.ts';
import { consume } from '#lib/streams/consume.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { encodeCursor } from '#lib/table/cursor.ts';
import { measured, startMeasuring } from '#lib/table/metrics.ts';
import { invoke, makeContext } from '#tests/helpers/lambda.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { setStored } from '#tests/helpers/stored.ts';
import { asEvent, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

let admin: TestUser;
let owner: TestUser;

beforeAll(async () => {
  admin = await makeUser({ permissionType: 1 });
  owner = await makeUser({ permissionType: 2 });
});

const SECRETS = ['passwordHash', 'tokenVersion', 'not-a-real-hash', 'emailNormalised', 'gsi1pk'];

async function listAll(limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const res = await invoke(getUsers, {
      route: '/api/dashboard/getUsers',
      token: admin.token,
      query: cursor ? { limit: String(limit), cursor } : { limit: String(limit) },
    });
    expect(res.status).toBe(200);
    for (const secret of SECRETS) expect(res.body).not.toContain(secret);
    const users = expectEnvelope(res.json(), UserList);
    expect(users.length).toBeLessThanOrEqual(limit);
    ids.push(...users.map((u) => u.id));
    cursor = res.json<{ next: string | null }>().next;
    if (!cursor) return ids;
  }
  throw new Error('too many pages');
}

describe('getUsers', () => {
  it('pages through every user, oldest first, without secrets', async () => {
    const seeded = [];
    for (let i = 0; i < 5; i++) seeded.push((await makeUser()).id);
    const ids = await listAll(2);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining([admin.id, owner.id, ...seeded]));
    expect(ids.slice(-5)).toEqual(seeded);
  });

  it('refuses out-of-range limits and invalid or foreign cursors with 400', async () => {
    const usersPage = await invoke(getUsers, {
      route: '/api/dashboard/getUsers',
      token: admin.token,
      query: { limit: '1' },
    });
    const usersCursor = String(usersPage.json<{ next: string | null }>().next);
    const [position, mac] = usersCursor.split('.');
    // A position of another user with the MAC of this one: tampered.
    const tampered = `${Buffer.from(Buffer.from(String(position), 'base64url').toString().replace(/#.*/, '#OTHER')).toString('base64url')}.${mac}`;
    const queries: Array<Record<string, string>> = [
      { limit: '0' },
      { limit: '101' },
      { limit: 'ten' },
      { cursor: 'garbage!' },
      { cursor: Buffer.from(JSON.stringify({ pk: 'USER#1', sk: 'PROFILE' })).toString('base64url') },
      // a genuine cursor of another list (the status-0 books), at a real user's position
      { cursor: encodeCursor('dashboard:BOOKS#S0', Buffer.from(String(position), 'base64url').toString()) },
      { cursor: tampered },
      { debug: '1' },
    ];
    expect(
      (
        await invoke(getUsers, {
          route: '/api/dashboard/getUsers',
          token: admin.token,
          query: { cursor: usersCursor },
        })
      ).status,
    ).toBe(200);
    for (const query of queries) {
      const res = await invoke(getUsers, { route: '/api/dashboard/getUsers', token: admin.token, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expectError(res.json());
    }
  });
});

describe('findUsers, through the search index kept by the stream processor', () => {
  const reader = new StreamReader();
  const feed = async () => {
    const records = await reader.next();
    const res = await consume(asEvent(records), makeContext(), processors);
    expect(res.batchItemFailures).toEqual([]);
    return records;
  };
  const find = async (query: string, limit?: number) => {
    const res = await invoke(findUsers, {
      route: '/api/dashboard/findUsers',
      token: admin.token,
      query: limit ? { query, limit: String(limit) } : { query },
    });
    expect(res.status, query).toBe(200);
    for (const secret of SECRETS) expect(res.body).not.toContain(secret);
    return expectEnvelope(res.json(), UserList).map((u) => u.id);
  };

  it('finds users by a case-insensitive prefix of e-mail, first or last name', async () => {
    await reader.skipToEnd();
    const tag = ulid().slice(-8).toLowerCase();
    const zora = await makeUser({
      emailAddress: `Zora.${tag}@Uni.edu`,
      emailNormalised: `zora.${tag}@uni.edu`,
      firstName: `Zora${tag}`,
      lastName: `Quill${tag}`,
    });
    const zeke = await makeUser({ firstName: `Zora${tag}x`, lastName: 'Other' });
    await feed();
    expect(await find(`ZORA.${tag.toUpperCase()}`)).toEqual([zora.id]);
    expect((await find(`zora${tag}`)).sort()).toEqual([zora.id, zeke.id].sort());
    expect(await find(`quill${tag}`)).toEqual([zora.id]);
    expect(await find(`qu${tag}`)).toEqual([]);
    expect(await find(`zora${tag}`, 1)).toHaveLength(1);
    // a full name (any case, extra spaces), and the start of one, find only that person
    expect(await find(`Zora${tag}  QUILL${tag}`)).toEqual([zora.id]);
    expect(await find(`zora${tag} qu`)).toEqual([zora.id]);
    expect(await find(`zora${tag}x oth`)).toEqual([zeke.id]);
    expect(await find(`zora${tag} nobody`)).toEqual([]);
    // a user id, as the reports show it, finds that user
    expect(await find(zeke.id)).toEqual([zeke.id]);
    expect(await find(zeke.id.toLowerCase())).toEqual([zeke.id]);
  });

  it('finds the users of a campus by a prefix of its domain, and says which are suspended', async () => {
    await reader.skipToEnd();
    const tag = ulid().slice(-8).toLowerCase();
    const campus = `campus${tag}.edu`;
    const ann = await makeUser({ emailAddress: `ann@${campus}`, emailNormalised: `ann@${campus}`, campus });
    const bob = await makeUser({ emailAddress: `bob@${campus}`, emailNormalised: `bob@${campus}`, campus });
    const elsewhere = await makeUser({ firstName: `Campus${tag}` });
    await setStored(userKey(bob.id), { suspended: true, suspendReason: 'Spam listings.' });
    await feed();
    // `campus<tag>` also starts the other user's first name: names first, then the campus
    expect(await find(`campus${tag}`)).toEqual([elsewhere.id, ...[ann.id, bob.id].sort()]);
    const res = await invoke(findUsers, {
      route: '/api/dashboard/findUsers',
      token: admin.token,
      query: { query: campus },
    });
    expect(res.status).toBe(200);
    const users = expectEnvelope(res.json(), UserList);
    expect(users.map((u) => [u.id, u.campus, u.status, u.suspendReason]).sort()).toEqual(
      [
        [ann.id, campus, 'active', undefined],
        [bob.id, campus, 'suspended', 'Spam listings.'],
      ].sort(),
    );
  });

  it('follows name changes and applies a redelivered record only once', async () => {
    await reader.skipToEnd();
    const tag = ulid().slice(-8).toLowerCase();
    const u = await makeUser({ firstName: `Old${tag}` });
    await setStored(userKey(u.id), { firstName: `New${tag}` });
    const records = await feed();
    expect(await find(`old${tag}`)).toEqual([]);
    expect(await find(`new${tag}`)).toEqual([u.id]);
    // At-least-once delivery: the same records again change nothing.
    expect((await consume(asEvent(records), makeContext(), processors)).batchItemFailures).toEqual([]);
    expect(await find(`new${tag}`)).toEqual([u.id]);
    expect(await find(`old${tag}`)).toEqual([]);
  });

  it('treats expression and pattern characters as plain text', async () => {
    for (const query of ['%', '.*', "' OR 1=1", '#', 'a#b']) expect(await find(query)).toEqual([]);
  });

  it('costs a fixed number of reads: the auth read, four index queries and one batch read', async () => {
    startMeasuring();
    await find('a');
    const commands = measured().operations.map((o) => o.command);
    expect(commands.filter((c) => c === 'Query')).toHaveLength(4);
    expect(commands.filter((c) => c === 'BatchGetItem').length).toBeLessThanOrEqual(1);
    expect(commands).not.toContain('Scan');
  });

  it('refuses an empty or overlong query with 400', async () => {
    for (const query of ['', '   ', 'x'.repeat(101)]) {
      const res = await invoke(findUsers, {
        route: '/api/dashboard/findUsers',
        token: admin.token,
        query: { query },
      });
      expect(res.status).toBe(400);
    }
  });
});

describe('makeAdmin and revokeAdmin', () => {
  const put = (h: typeof makeAdmin, path: string, userId: string) =>
    invoke(h, { method: 'PUT', route: `/api/dashboard/${path}`, token: owner.token, body: { userId } });

  const readUser = async (id: string) =>
    (await db.send(new GetCommand({ TableName: TABLE, Key: userKey(id), ConsistentRead: true }))).Item;
  const storedRole = async (id: string) => (await readUser(id))?.permissionType;
  const auditOf = async (id: string) => {
    const log = await invoke(getAuditLog, {
      route: '/api/dashboard/getAuditLog',
      token: owner.token,
      query: { limit: '100' },
    });
    expect(log.status).toBe(200);
    return expectEnvelope(log.json(), AuditLog).filter((e) => e.target.id === id);
  };

  it('promotes a user 0 -> 1 and demotes 1 -> 0, each audited, and refuses a repeat with 409', async () => {
    const u = await makeUser();
    const up = await put(makeAdmin, 'makeAdmin', u.id);
    expect(expectEnvelope(up.json(), AdminUser)).toMatchObject({ id: u.id, permissionType: 1 });
    expect(expectError((await put(makeAdmin, 'makeAdmin', u.id)).json(), 'WRONG_ROLE')).toBeTruthy();

    const down = await put(revokeAdmin, 'revokeAdmin', u.id);
    expect(expectEnvelope(down.json(), AdminUser)).toMatchObject({ id: u.id, permissionType: 0 });
    const again = await put(revokeAdmin, 'revokeAdmin', u.id);
    expect(again.status).toBe(409);

    const log = await invoke(getAuditLog, {
      route: '/api/dashboard/getAuditLog',
      token: owner.token,
      query: { limit: '100' },
    });
    const entries = expectEnvelope(log.json(), AuditLog).filter((e) => e.target.id === u.id);
    expect(entries).toMatchObject([
      {
        actor: owner.id,
        action: 'revokeAdmin',
        target: { kind: 'user', id: u.id },
        before: { permissionType: 1 },
        after: { permissionType: 0 },
      },
      {
        actor: owner.id,
        action: 'makeAdmin',
        target: { kind: 'user', id: u.id },
        before: { permissionType: 0 },
        after: { permissionType: 1 },
      },
    ]);
  });

  it('never demotes an owner and answers 404 for an unknown user', async () => {
    const other = await makeUser({ permissionType: 2 });
    const auditBefore = (await auditOf(other.id)).length;
    for (const [h, path, id] of [
      [revokeAdmin, 'revokeAdmin', other.id],
      [makeAdmin, 'makeAdmin', other.id],
      [revokeAdmin, 'revokeAdmin', owner.id],
    ] as const) {
      const res = await put(h, path, id);
      expect(res.status, `${path} ${id}`).toBe(409);
      expectError(res.json(), 'WRONG_ROLE');
    }
    const missing = await put(makeAdmin, 'makeAdmin', 'NOSUCHUSER');
    expect(missing.status).toBe(404);
    expectError(missing.json(), 'NOT_FOUND');
    const res = await invoke(makeAdmin, {
      method: 'PUT',
      route: '/api/dashboard/makeAdmin',
      token: owner.token,
      body: { userId: other.id, permissionType: 2 },
    });
    expect(res.status).toBe(400);
    expect(expectError(res.json(), 'VALIDATION_FAILED').details?.map((d) => d.field)).toEqual([
      'permissionType',
    ]);
    // The owners are still owners, nothing was audited, and no user item was made for the unknown id.
    expect(await storedRole(other.id)).toBe(2);
    expect(await storedRole(owner.id)).toBe(2);
    expect(await readUser('NOSUCHUSER')).toBeUndefined();
    expect(await auditOf(other.id)).toHaveLength(auditBefore);
  });

  it('lets exactly one of two racing promotions win', async () => {
    const u = await makeUser();
    const results = await Promise.all([put(makeAdmin, 'makeAdmin', u.id), put(makeAdmin, 'makeAdmin', u.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const lost = results.find((r) => r.status === 409);
    expectError(lost?.json(), 'WRONG_ROLE');
    expect(await storedRole(u.id)).toBe(1);
    expect((await auditOf(u.id)).map((e) => e.action)).toEqual(['makeAdmin']);
  });
});

describe('backfilling the user search index', () => {
  it('indexes users that were stored before the processor ran, and running it again changes nothing', async () => {
    const { backfillUserSearch } = await import('#lib/dashboard/user-search.ts');
    const tag = ulid().slice(-8).toLowerCase();
    const early = await makeUser({ lastName: `Early${tag}` });
    const find = async () => {
      const res = await invoke(findUsers, {
        route: '/api/dashboard/findUsers',
        token: admin.token,
        query: { query: `early${tag}` },
      });
      return expectEnvelope(res.json(), UserList).map((u) => u.id);
    };
    expect(await find()).toEqual([]);
    expect(await backfillUserSearch(2)).toBeGreaterThanOrEqual(1);
    expect(await find()).toEqual([early.id]);
    await backfillUserSearch();
    expect(await find()).toEqual([early.id]);
  });
});
