/**
 * The HTTP routes of serverless.yml, with the `${file(...)}` includes of its `functions:` list
 * resolved, so tools and tests see exactly the routes API Gateway will have.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface HttpRoute {
  /** Function key in serverless.yml, e.g. `samplePing`. */
  functionName: string;
  /** Lower-case HTTP method, e.g. `get`. */
  method: string;
  /** Path template as API Gateway has it, e.g. `/api/books/getBooksNoToken/{limit}/{skip}`. */
  path: string;
  /** Module file relative to the project root, e.g. `functions/sample/ping.ts`. */
  module: string;
  /** Exported name of the handler in that module, e.g. `handler`. */
  exportName: string;
}

const FILE_INCLUDE = /^\$\{file\(([^)]+)\)\}$/;

/** YAML as plain data; CloudFormation tags (!Ref, !GetAtt, ...) are read as their plain values. */
function readYaml(file: string): unknown {
  return parseDocument(readFileSync(file, 'utf8'), { logLevel: 'silent' }).toJS();
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `functions:` of serverless.yml (a map, or a list of maps and `${file(...)}` includes). */
export function readFunctions(root = PROJECT_ROOT): Record<string, Record<string, unknown>> {
  const config = readYaml(path.join(root, 'serverless.yml'));
  if (!isRecord(config)) throw new Error('serverless.yml is not a mapping');
  const entries = Array.isArray(config.functions) ? config.functions : [config.functions ?? {}];
  const functions: Record<string, Record<string, unknown>> = {};
  for (const entry of entries) {
    let block: unknown = entry;
    if (typeof entry === 'string') {
      const include = FILE_INCLUDE.exec(entry.trim());
      if (!include?.[1]) throw new Error(`serverless.yml functions: cannot read entry ${entry}`);
      block = readYaml(path.resolve(root, include[1])) ?? {};
    }
    if (!isRecord(block))
      throw new Error(`serverless.yml functions: entry ${String(entry)} is not a mapping`);
    for (const [name, fn] of Object.entries(block)) {
      if (name in functions) throw new Error(`serverless.yml functions: ${name} is declared twice`);
      if (!isRecord(fn)) throw new Error(`serverless.yml functions: ${name} is not a mapping`);
      functions[name] = fn;
    }
  }
  return functions;
}

/** Every `httpApi` event of every function, sorted by path then method. */
export function readHttpRoutes(root = PROJECT_ROOT): HttpRoute[] {
  const routes: HttpRoute[] = [];
  for (const [functionName, fn] of Object.entries(readFunctions(root))) {
    const events = Array.isArray(fn.events) ? fn.events : [];
    for (const event of events) {
      if (!isRecord(event)) continue;
      if ('http' in event)
        throw new Error(`${functionName}: REST API (http) events are not used; use httpApi`);
      if (!('httpApi' in event)) continue;
      const { method, path: routePath } = parseHttpApiEvent(functionName, event.httpApi);
      const handler = typeof fn.handler === 'string' ? fn.handler : '';
      const dot = handler.lastIndexOf('.');
      if (dot <= 0) throw new Error(`${functionName}: handler "${handler}" is not <file>.<export>`);
      routes.push({
        functionName,
        method,
        path: routePath,
        module: `${handler.slice(0, dot)}.ts`,
        exportName: handler.slice(dot + 1),
      });
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

function parseHttpApiEvent(functionName: string, event: unknown): { method: string; path: string } {
  let method: unknown;
  let routePath: unknown;
  if (typeof event === 'string') [method, routePath] = event.trim().split(/\s+/);
  else if (isRecord(event)) ({ method, path: routePath } = event);
  if (typeof method !== 'string' || typeof routePath !== 'string' || !routePath.startsWith('/')) {
    throw new Error(
      `${functionName}: httpApi event needs a method and a path (got ${JSON.stringify(event)})`,
    );
  }
  if (method === '*')
    throw new Error(`${functionName}: httpApi method "*" cannot be documented; name the method`);
  return { method: method.toLowerCase(), path: routePath };
}
