/**
 * Every route in the benchmark: the routes serverless.yml declares (tests/helpers/routes.ts reads
 * them the way the role tests do), each covered either by a latency case with a floor
 * (bench/cases/*.ts) or by a route call (bench/cases/routes.ts), which is measured here for its
 * status, DynamoDB calls and capacity per request (and the time of those few calls, no floor).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { type EventInput, makeContext, makeEvent } from '#tests/helpers/lambda.ts';
import { declaredRoutes, type Route } from '#tests/helpers/routes.ts';
import type { Fixture, SeedUser } from './fixture.ts';
import { ROOT } from './measure.ts';
import { median } from './stats.ts';
import type { BenchCase } from './types.ts';

export interface RouteContext {
  fixture: Fixture;
  /** an admin (permissionType 1) and the owner (2) for the dashboard */
  admin: SeedUser;
  owner: SeedUser;
  /** a new stored user whose password is the fixture's, with a token */
  newUser: (overrides?: { permissionType?: number }) => Promise<SeedUser>;
  /** unique per run, for addresses */
  runId: string;
}

export interface RouteCall {
  /** `METHOD /path` as serverless.yml declares it */
  route: string;
  status: number;
  /** untimed set-up of call `i`; returns its request */
  event: (ctx: RouteContext, i: number) => Promise<EventInput>;
}

export interface RouteResult {
  route: string;
  function: string;
  /** 'case': measured with its floor (section 1); 'call': this sweep */
  by: 'case' | 'call';
  case?: string;
  samples: number;
  status: number;
  calls: number;
  capacityUnits: number;
  operations: string[];
  /** median time of the sample calls (in-process, warm after the first), ms */
  p50Ms: number;
}

const key = (r: Route) => `${r.method} ${r.path}`;

/**
 * Which declared routes are covered by what; `missing` lists routes with neither a case nor a route
 * call, `unknown` route calls naming no declared route: both must be empty.
 */
export function routeCoverage(
  cases: Pick<BenchCase, 'name' | 'module'>[],
  calls: Pick<RouteCall, 'route'>[],
) {
  const routes = declaredRoutes();
  const byCase = new Map<string, string>();
  for (const r of routes) {
    const c = cases.find((x) => path.join(ROOT, x.module) === r.modulePath);
    if (c) byCase.set(key(r), c.name);
  }
  const callRoutes = new Set(calls.map((c) => c.route));
  const declared = new Set(routes.map(key));
  return {
    routes,
    byCase,
    missing: routes.map(key).filter((k) => !byCase.has(k) && !callRoutes.has(k)),
    unknown: [...callRoutes].filter((k) => !declared.has(k)),
    duplicated: [...callRoutes].filter((k) => byCase.has(k)),
  };
}

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

/** Calls every route call `samples` times with capacity metering; throws on an unexpected status. */
export async function measureRoutes(
  ctx: RouteContext,
  calls: RouteCall[],
  samples: number,
  log: (msg: string) => void,
): Promise<RouteResult[]> {
  const { startMeasuring, measured, stopMeasuring } = await import('#lib/table/metrics.ts');
  const routes = new Map(declaredRoutes().map((r) => [key(r), r]));
  const results: RouteResult[] = [];
  let n = 0;
  for (const call of calls) {
    const route = routes.get(call.route);
    if (!route) throw new Error(`route call ${call.route} names no route of serverless.yml`);
    const mod = (await import(pathToFileURL(route.modulePath).href)) as Record<string, Handler>;
    const handler = mod[route.exportName];
    if (typeof handler !== 'function') throw new Error(`${route.modulePath} exports no ${route.exportName}`);
    let callsSum = 0;
    let cuSum = 0;
    let operations: string[] = [];
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      const input = await call.event(ctx, n++);
      startMeasuring({ capacity: true });
      const t = performance.now();
      const res = await handler(makeEvent(input), makeContext());
      times.push(performance.now() - t);
      const m = measured();
      stopMeasuring();
      const status = typeof res === 'string' ? 200 : (res.statusCode ?? 200);
      if (status !== call.status) {
        const body = typeof res === 'string' ? res : String(res.body ?? '');
        throw new Error(
          `${call.route}: expected status ${call.status}, got ${status}: ${body.slice(0, 300)}`,
        );
      }
      callsSum += m.calls;
      cuSum += m.capacityUnits;
      operations = m.operations.map((o) => (o.failed ? `${o.command} (refused)` : o.command));
    }
    results.push({
      route: call.route,
      function: route.functionKey,
      by: 'call',
      samples,
      status: call.status,
      calls: callsSum / samples,
      capacityUnits: cuSum / samples,
      operations,
      p50Ms: median(times),
    });
  }
  log(`  ${results.length} routes called ${samples} x each`);
  return results;
}
