import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getStatistics } from '#functions/dashboard/get-statistics.ts';
import { handler as permissionLevel } from '#functions/dashboard/permission-level.ts';
import { handler as revokeAdmin } from '#functions/dashboard/revoke-admin.ts';
import { PermissionLevel, Statistics } from '#lib/dashboard/schemas.ts';
import { userKey } from '#lib/db/keys.ts';
import type { RouteSpec } from '#lib/http/index.ts';
import { measured, startMeasuring } from '#lib/table/metrics.ts';
import { readItem } from '#tests/helpers/cart.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { declaredRoutes, type Route } from '#tests/helpers/routes.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

type Handler = Parameters<typeof invoke>[0] & { spec: RouteSpec };

/** Routes any signed-in user may call (API.md: "any user"); every other dashboard route needs a role. */
const ANY_USER = new Set(['/api/dashboard/permissionLevel']);
/** Owner routes according to API.md; the handlers' specs must say the same. */
const OWNER_ONLY = [
  '/api/dashboard/deactivateBooks',
  '/api/dashboard/makeAdmin',
  '/api/dashboard/revokeAdmin',
];

const routes = declaredRoutes().filter((r) => r.path.startsWith('/api/dashboard/'));

async function load(route: Route): Promise<Handler> {
  const mod = (await import(route.modulePath)) as Record<string, Handler>;
  const handler = mod[route.exportName];
  if (!handler)
    throw new Error(`${route.functionKey}: ${route.modulePath} has no export ${route.exportName}`);
  return handler;
}

const call = (handler: Handler, route: Route, token: string) =>
  invoke(handler, {
    method: route.method,
    route: route.path,
    pathParameters: route.path.includes('{status}') ? { status: '1' } : undefined,
    body: route.method === 'GET' ? undefined : {},
    token,
  });

let user: TestUser;
let admin: TestUser;
let owner: TestUser;

beforeAll(async () => {
  user = await makeUser({ permissionType: 0 });
  admin = await makeUser({ permissionType: 1 });
  owner = await makeUser({ permissionType: 2 });
});

describe('dashboard roles, for every dashboard route declared in serverless.yml', () => {
  it('finds every dashboard route of the contract (with its trust additions) in serverless.yml', () => {
    expect(routes.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      [
        'GET /api/dashboard/permissionLevel',
        'GET /api/dashboard/getStatistics',
        'GET /api/dashboard/getUsers',
        'GET /api/dashboard/findUsers',
        'GET /api/dashboard/getBooksWithStatus/{status}',
        'GET /api/dashboard/getOrders',
        'POST /api/dashboard/confirmBook',
        'POST /api/dashboard/setBookPaid',
        'POST /api/dashboard/cancelPurchase',
        'GET /api/dashboard/getAuditLog',
        'PUT /api/dashboard/makeAdmin',
        'PUT /api/dashboard/revokeAdmin',
        'POST /api/dashboard/deactivateBooks',
        'GET /api/dashboard/getReports',
        'POST /api/dashboard/resolveReport',
        'PUT /api/dashboard/suspendUser',
        'PUT /api/dashboard/reinstateUser',
        'GET /api/dashboard/getConversation/{conversationId}',
        'GET /api/dashboard/getMessageReports',
        'POST /api/dashboard/resolveMessageReport',
        'GET /api/dashboard/getHandoverPoints',
        'POST /api/dashboard/putHandoverPoint',
        'POST /api/dashboard/removeHandoverPoint',
        'GET /api/dashboard/getHandovers',
      ].sort(),
    );
  });

  it('declares owner-only exactly the owner routes of the contract, and admin every other role route', async () => {
    for (const route of routes) {
      const { spec } = await load(route);
      expect(spec.auth, route.path).toBe('required');
      if (ANY_USER.has(route.path)) expect(spec.role, route.path).toBeUndefined();
      else expect(spec.role, route.path).toBe(OWNER_ONLY.includes(route.path) ? 'owner' : 'admin');
    }
  });

  for (const route of routes.filter((r) => !ANY_USER.has(r.path))) {
    it(`refuses a plain user (role 0) on ${route.method} ${route.path} with 403, before any other read or write`, async () => {
      const handler = await load(route);
      startMeasuring();
      const res = await call(handler, route, user.token);
      expect(res.status).toBe(403);
      expectError(res.json(), 'ROLE_REQUIRED');
      // Only the auth layer's read of the caller's user record happened.
      expect(measured().operations.map((o) => o.command)).toEqual(['GetItem']);
    });
  }

  for (const route of routes.filter((r) => OWNER_ONLY.includes(r.path))) {
    it(`refuses an admin (role 1) on the owner route ${route.method} ${route.path} with 403`, async () => {
      const res = await call(await load(route), route, admin.token);
      expect(res.status).toBe(403);
      expectError(res.json(), 'ROLE_REQUIRED');
    });
  }

  it('lets an admin past the role check of every admin route and an owner past every route', async () => {
    // The role check comes before validation, so an empty body reaching 400 VALIDATION_FAILED (naming
    // the missing field) has passed it; a route needing no input answers 200 with its response schema.
    const expected: Record<string, { status: 200 } | { status: 400; field: string }> = {
      '/api/dashboard/permissionLevel': { status: 200 },
      '/api/dashboard/getStatistics': { status: 200 },
      '/api/dashboard/getUsers': { status: 200 },
      '/api/dashboard/findUsers': { status: 400, field: 'query' },
      '/api/dashboard/getBooksWithStatus/{status}': { status: 200 },
      '/api/dashboard/getOrders': { status: 200 },
      '/api/dashboard/getAuditLog': { status: 200 },
      '/api/dashboard/confirmBook': { status: 400, field: 'bookId' },
      '/api/dashboard/setBookPaid': { status: 400, field: 'bookId' },
      '/api/dashboard/cancelPurchase': { status: 400, field: 'bookId' },
      '/api/dashboard/makeAdmin': { status: 400, field: 'userId' },
      '/api/dashboard/revokeAdmin': { status: 400, field: 'userId' },
      '/api/dashboard/deactivateBooks': { status: 200 },
      '/api/dashboard/getReports': { status: 200 },
      '/api/dashboard/resolveReport': { status: 400, field: 'bookId' },
      '/api/dashboard/suspendUser': { status: 400, field: 'userId' },
      '/api/dashboard/reinstateUser': { status: 400, field: 'userId' },
      '/api/dashboard/getConversation/{conversationId}': { status: 400, field: 'conversationId' },
      '/api/dashboard/getMessageReports': { status: 200 },
      '/api/dashboard/resolveMessageReport': { status: 400, field: 'conversationId' },
      '/api/dashboard/getHandoverPoints': { status: 400, field: 'campus' },
      '/api/dashboard/putHandoverPoint': { status: 400, field: 'campus' },
      '/api/dashboard/removeHandoverPoint': { status: 400, field: 'pointId' },
      '/api/dashboard/getHandovers': { status: 200 },
    };
    expect(Object.keys(expected).sort()).toEqual(routes.map((r) => r.path).sort());
    for (const route of routes) {
      const handler = await load(route);
      const want = expected[route.path];
      const callers = OWNER_ONLY.includes(route.path) ? [owner] : [admin, owner];
      for (const who of callers) {
        const res = await call(handler, route, who.token);
        expect(res.status, `${route.path} as role ${who.record.permissionType}`).toBe(want?.status);
        if (want?.status === 400) {
          const fields = expectError(res.json(), 'VALIDATION_FAILED').details?.map((d) => d.field);
          expect(fields, route.path).toContain(want.field);
        } else if (handler.spec.response) {
          expectEnvelope(res.json(), handler.spec.response);
        }
      }
    }
    // Nothing above changed a role.
    for (const who of [user, admin, owner])
      expect(await readItem(userKey(who.id))).toMatchObject({ permissionType: who.record.permissionType });
  });

  it('answers 401 without a token on every dashboard route', async () => {
    for (const route of routes) {
      const res = await invoke(await load(route), { method: route.method, route: route.path });
      expect(res.status, route.path).toBe(401);
    }
  });
});

describe('the role is read from the user record on every call', () => {
  it('tells each caller their stored permission level', async () => {
    for (const who of [user, admin, owner]) {
      const res = await invoke(permissionLevel, {
        route: '/api/dashboard/permissionLevel',
        token: who.token,
      });
      expect(expectEnvelope(res.json(), PermissionLevel)).toEqual({
        permissionType: who.record.permissionType,
      });
    }
  });

  it("refuses a revoked admin's still-valid token on the next call", async () => {
    const demoted = await makeUser({ permissionType: 1 });
    const before = await invoke(getStatistics, {
      route: '/api/dashboard/getStatistics',
      token: demoted.token,
    });
    expect(before.status).toBe(200);
    expectEnvelope(before.json(), Statistics);

    const revoke = await invoke(revokeAdmin, {
      method: 'PUT',
      route: '/api/dashboard/revokeAdmin',
      token: owner.token,
      body: { userId: demoted.id },
    });
    expect(revoke.status).toBe(200);

    const after = await invoke(getStatistics, {
      route: '/api/dashboard/getStatistics',
      token: demoted.token,
    });
    expect(after.status).toBe(403);
    expectError(after.json(), 'ROLE_REQUIRED');
    const level = await invoke(permissionLevel, {
      route: '/api/dashboard/permissionLevel',
      token: demoted.token,
    });
    expect(expectEnvelope(level.json(), PermissionLevel)).toEqual({ permissionType: 0 });
  });

  it('does not trust a role claimed in the token', async () => {
    const { signToken } = await import('#lib/accounts/jwt.ts');
    const forged = (await signToken({ sub: user.id, role: 2, tv: 0 })).token;
    const res = await invoke(getStatistics, { route: '/api/dashboard/getStatistics', token: forged });
    expect(res.status).toBe(403);
  });
});
