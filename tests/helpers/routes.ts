/**
 * The HTTP routes as serverless.yml declares them: serverless.yml's `functions` list, each
 * `${file(...)}` include read and merged, each function's httpApi events with its handler module.
 * Tests that must cover every route (e.g. the role checks) take their list from here.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Route {
  functionKey: string;
  method: string;
  path: string;
  /** absolute path of the handler's module */
  modulePath: string;
  exportName: string;
}

type FunctionDef = { handler?: string; events?: Array<{ httpApi?: { method?: string; path?: string } }> };

const readYaml = (file: string): unknown => parse(readFileSync(file, 'utf8'), { logLevel: 'error' });

export function declaredRoutes(): Route[] {
  const service = readYaml(join(ROOT, 'serverless.yml')) as { functions?: unknown };
  const entries = Array.isArray(service.functions) ? service.functions : [service.functions];
  const functions: Record<string, FunctionDef> = {};
  for (const entry of entries) {
    const include = typeof entry === 'string' ? /^\$\{file\((.+)\)\}$/.exec(entry.trim()) : null;
    const defs = include?.[1] ? readYaml(join(ROOT, include[1])) : entry;
    Object.assign(functions, defs as Record<string, FunctionDef>);
  }
  const routes: Route[] = [];
  for (const [functionKey, def] of Object.entries(functions)) {
    const handler = def.handler ?? '';
    const dot = handler.lastIndexOf('.');
    for (const event of def.events ?? []) {
      if (!event.httpApi?.path || !event.httpApi.method) continue;
      routes.push({
        functionKey,
        method: event.httpApi.method.toUpperCase(),
        path: event.httpApi.path,
        modulePath: join(ROOT, `${handler.slice(0, dot)}.ts`),
        exportName: handler.slice(dot + 1),
      });
    }
  }
  return routes;
}
