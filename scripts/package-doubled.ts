/**
 * Room to grow (docs/deploy.md): packages a variant of this service with twice today's routes and
 * checks that every stack of it stays below 400 resources. Every HTTP function gets a twin (same
 * handler, so the same area and nested stack; same role and settings; its route under /api/twin/),
 * written to a generated functions file that a generated copy of serverless.yml adds to the list.
 * Offline, like `npm run package`, in a temporary service folder (links to this tree's files beside
 * that copy), so its build folders (.serverless, .esbuild) are its own: a packaging or a server
 * running in this tree at the same time is untouched.
 *
 *   npx tsx scripts/package-doubled.ts      (prints each stack's resources; exit 1 at 400 or more)
 *
 * tests/package/stacks.test.ts runs it.
 */
import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { RESOURCE_CEILING, ROOT_TEMPLATE, readStacks, resourceCounts } from '#scripts/package/stacks.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

interface FunctionConfig {
  handler: string;
  events?: { httpApi?: { method: string; path: string } }[];
}

/** serverless.yml's functions files, in order. */
function functionFiles(yml: string): string[] {
  return [...yml.matchAll(/^ {2}- \$\{file\((\.\/functions\/[\w-]+\/functions\.yml)\)\}$/gm)].map(
    (m) => m[1] ?? '',
  );
}

/** A twin of every HTTP function: same settings, its routes under /api/twin/. */
export function twins(yml: string): Record<string, FunctionConfig> {
  const out: Record<string, FunctionConfig> = {};
  for (const file of functionFiles(yml)) {
    const fns = parse(readFileSync(path.join(ROOT, file), 'utf8'), { logLevel: 'error' }) as Record<
      string,
      FunctionConfig
    >;
    for (const [name, fn] of Object.entries(fns)) {
      const routes = (fn.events ?? []).filter((e) => e.httpApi);
      if (routes.length === 0) continue;
      out[`${name}Twin`] = {
        ...fn,
        events: routes.map((e) => ({
          httpApi: { method: e.httpApi?.method ?? '', path: `/api/twin${e.httpApi?.path ?? ''}` },
        })),
      };
    }
  }
  return out;
}

export interface DoubledResult {
  /** routes in the variant and in today's serverless.yml */
  routes: number;
  todaysRoutes: number;
  stacks: { name: string; resources: number }[];
}

/** Packages the doubled variant (~1-3 minutes) and reads its stacks. */
export async function packageDoubled(): Promise<DoubledResult> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'campus-books-doubled-'));
  const service = path.join(tmp, 'service');
  const out = path.join(tmp, 'package');
  try {
    const yml = readFileSync(path.join(ROOT, 'serverless.yml'), 'utf8');
    const extra = twins(yml);
    const twinsFile = path.join(tmp, 'twins.yml');
    writeFileSync(twinsFile, stringify(extra));
    const files = functionFiles(yml);
    const last = `  - \${file(${files.at(-1)})}\n`;
    if (!yml.includes(last)) throw new Error('serverless.yml lists no functions file');
    mkdirSync(service);
    for (const entry of readdirSync(ROOT)) {
      if (!['serverless.yml', '.serverless', '.esbuild', '.git'].includes(entry)) {
        symlinkSync(path.join(ROOT, entry), path.join(service, entry));
      }
    }
    writeFileSync(
      path.join(service, 'serverless.yml'),
      yml.replace(last, `${last}  - \${file(${twinsFile})}\n`),
    );
    const require = createRequire(import.meta.url);
    const bin = path.join(path.dirname(require.resolve('serverless/package.json')), 'bin', 'serverless.js');
    await run(process.execPath, [bin, 'package', '--stage', 'dev', '--package', out], {
      cwd: service,
      env: {
        ...process.env,
        AWS_ACCESS_KEY_ID: '',
        AWS_SECRET_ACCESS_KEY: '',
        AWS_PROFILE: '',
        SLS_TELEMETRY_DISABLED: '1',
        SLS_NOTIFICATIONS_MODE: 'off',
      },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 900_000,
    });
    const stacks = readStacks(path.join(out, ROOT_TEMPLATE));
    const routes = stacks.flatMap((s) =>
      Object.values(s.template.Resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route'),
    ).length;
    const twinRoutes = Object.values(extra).reduce((n, fn) => n + (fn.events?.length ?? 0), 0);
    return { routes, todaysRoutes: routes - twinRoutes, stacks: resourceCounts(stacks) };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await packageDoubled();
  console.log(`doubled variant: ${result.routes} routes (today ${result.todaysRoutes})`);
  for (const s of result.stacks) console.log(`  ${s.name}: ${s.resources} resources`);
  const over = result.stacks.filter((s) => s.resources >= RESOURCE_CEILING);
  if (over.length > 0) {
    console.error(`at or above ${RESOURCE_CEILING}: ${over.map((s) => s.name).join(', ')}`);
    process.exit(1);
  }
}
