/**
 * Cold init as a user feels it (issue 19): a fresh Node process imports a packaged function's
 * bundle and answers its first request, whose first DynamoDB call goes to DynamoDB Local (a new
 * client, a new connection). Reported per case: import, the configuration's part of it, and the
 * first call, medians of `runs` fresh processes.
 *
 * The processes run the deployed path of the configuration: a stage that is not emulated
 * (`bench-deployed`), so each reads the secrets serverless.yml gives its function (the
 * `*_SECRET_ID` variables of the packaged template), one GetSecretValue each, in parallel, from a
 * local stand-in for Secrets Manager (tests/helpers/secrets-stub.ts) instead of the real service:
 * the code path and its round trips are the deployed ones, the network's latency to AWS is not.
 *
 * "config" is measured apart, as a fresh process importing `lib/config.ts` bundled alone (zod, the
 * environment check and reading the function's secrets), with the function's environment. "import" is the bundle's whole import
 * (configuration included); the shares are import - config, config, and the first call.
 *
 * Each case is compared with its SDK floor (./sdk-floor.ts) in the same run, a fresh process of the
 * floor after each of the case's: the same SDK client with the same settings, Powertools, the same
 * secrets and the same first DynamoDB calls, and none of the service's code.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { ROOT_TEMPLATE, readStacks } from '#scripts/package/stacks.ts';
import { makeEvent } from '#tests/helpers/lambda.ts';
import { startSecretsStub } from '#tests/helpers/secrets-stub.ts';
import { run, unzip, writeEntries } from './coldstart.ts';
import { ROOT } from './measure.ts';
import { bundleSdkFloor, functionBundleOptions, recordFloorCalls } from './sdk-floor.ts';
import { median } from './stats.ts';
import type { BenchCase, CaseRun } from './types.ts';

export interface ColdInitResult {
  case: string;
  function: string;
  runs: number;
  /** medians, ms */
  importMs: number;
  configMs: number;
  firstCallMs: number;
  totalMs: number;
  /** median of the SDK floor's fresh processes (import + first call), ms (./sdk-floor.ts) */
  floorMs?: number;
  /** the DynamoDB calls the SDK floor sends (recorded from the case's floor) */
  floorCalls?: number;
  /** status of the first call (the case's success status, or the run fails) */
  status: number;
}

/** serverless.yml function name of a handler module, from functions/<area>/functions.yml. */
export function functionOfModule(module: string): string | undefined {
  const handler = `${module.replace(/\.ts$/, '')}.handler`;
  const dir = path.join(ROOT, 'functions');
  for (const area of readdirSync(dir)) {
    let text: string;
    try {
      text = readFileSync(path.join(dir, area, 'functions.yml'), 'utf8');
    } catch {
      continue;
    }
    let current: string | undefined;
    for (const line of text.split('\n')) {
      const key = /^([A-Za-z0-9]+):\s*$/.exec(line);
      if (key) current = key[1];
      else if (current && line.trim() === `handler: ${handler}`) return current;
    }
  }
  return undefined;
}

const CHILD = `
const [bundle, eventFile] = process.argv.slice(1);
const event = JSON.parse((await import('node:fs')).readFileSync(eventFile, 'utf8'));
const context = {
  callbackWaitsForEmptyEventLoop: false, functionName: 'bench', functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:bench', memoryLimitInMB: '1024',
  awsRequestId: 'cold-' + process.pid, logGroupName: 'bench', logStreamName: 'bench',
  getRemainingTimeInMillis: () => 30000, done() {}, fail() {}, succeed() {},
};
const t0 = performance.now();
const mod = await import(bundle);
const t1 = performance.now();
const res = await mod.handler(event, context);
const t2 = performance.now();
process.stdout.write('@@' + JSON.stringify({ importMs: t1 - t0, callMs: t2 - t1, status: res?.statusCode ?? 200 }));
process.exit(0);
`;

const IMPORT_ONLY = `
const t0 = performance.now();
await import(process.argv[1]);
process.stdout.write('@@' + String(performance.now() - t0));
process.exit(0);
`;

async function node(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const res = await run(process.execPath, ['--input-type=module', '-e', script, ...args], env);
  if (res.code !== 0) throw new Error(`fresh process failed (${res.code}):\n${res.out.slice(-2000)}`);
  // stderr shares `out` (a warning, say): the result is what follows the last marker
  return res.out.slice(res.out.lastIndexOf('@@') + 2);
}

/** The `*_SECRET_ID` variables serverless.yml gives `fn`, from the packaged template. */
function secretIdsOf(fn: string): string[] {
  // The function may sit in the root stack or in its area's nested stack (infra/stacks-map.cjs).
  const id = `${fn.charAt(0).toUpperCase()}${fn.slice(1)}LambdaFunction`;
  const resource = readStacks(path.join(ROOT, '.serverless', ROOT_TEMPLATE))
    .map((s) => s.template.Resources[id])
    .find((r) => r !== undefined);
  const variables = (resource?.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
  return Object.keys(variables).filter((k) => k.endsWith('_SECRET_ID'));
}

/**
 * A deployed stage's environment for a fresh process: no emulated stage's defaults, the secrets'
 * values blank and their ids set (`ids`), Secrets Manager at `secretsUrl`, credentials as Lambda
 * passes them (in the environment). The table, DynamoDB Local and the emulators stay the bench's.
 */
function deployedEnv(ids: string[], secretsUrl: string, secretNames: readonly string[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    STAGE: 'bench-deployed',
    PUBLIC_URL: process.env.PUBLIC_URL || 'http://localhost:8080',
    MAIL_FROM: process.env.MAIL_FROM || 'Campus Books <no-reply@campusbooks.local>',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secretsUrl,
  };
  for (const name of secretNames) delete env[name];
  for (const id of ids) env[id] = `bench/${id}`;
  return env;
}

/** The value of a secret the bench's own (local) configuration has none of: 48 characters. */
const BENCH_SECRET_VALUE = 'bench-only-secret-value-of-forty-eight-character';

export interface ColdInitCase {
  c: BenchCase;
  run: CaseRun;
}

/**
 * Measures every case whose handler is packaged (.serverless/<function>.zip), and its SDK floor. Run
 * with the emulators up and the table seeded; `cases[i].run` must allow `runs + 1` calls (the
 * case's i = 0 .. runs - 1, and the floor's recording, i = runs).
 */
export async function measureColdInit(
  cases: ColdInitCase[],
  runs: number,
  dynamoEndpoint: string,
  log: (m: string) => void,
): Promise<ColdInitResult[]> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-coldinit-'));
  const results: ColdInitResult[] = [];
  // the values the bench's own process signs tokens with (its stage is local), served by the stub
  const { config, SECRET_NAMES, secretIdVariable } = await import('#lib/config.ts');
  const { ORIGIN_VERIFY_HEADER } = await import('#lib/http/client-address.ts');
  // A secret with no local value (CloudFront's origin-verify header) gets the bench's own, and each
  // request carries that header as CloudFront would send it, so the origin check runs as deployed.
  const stored = Object.fromEntries(
    SECRET_NAMES.map((name) => [`bench/${secretIdVariable(name)}`, config[name] || BENCH_SECRET_VALUE]),
  );
  const secrets = await startSecretsStub(stored, config.AWS_REGION);
  try {
    const configBundle = path.join(tmp, 'config.mjs');
    // as the functions are bundled (serverless.yml custom.esbuild)
    await build({
      ...functionBundleOptions(),
      entryPoints: [path.join(ROOT, 'lib', 'config.ts')],
      outfile: configBundle,
    });
    const floorBundle = path.join(tmp, 'sdk-floor.mjs');
    await bundleSdkFloor(floorBundle);

    for (const { c, run } of cases) {
      const fn = functionOfModule(c.module);
      const zip = fn && path.join(ROOT, '.serverless', `${fn}.zip`);
      if (!fn || !zip) continue;
      let entries: Map<string, Buffer>;
      try {
        entries = unzip(readFileSync(zip));
      } catch {
        continue;
      }
      const mjs = [...entries.keys()].find((n) => n.endsWith('.mjs'));
      if (!mjs) continue;
      writeEntries(entries, path.join(tmp, fn));
      // the configuration alone, with this function's secrets
      const env = deployedEnv(secretIdsOf(fn), secrets.url, SECRET_NAMES);
      const configTimes: number[] = [];
      for (let k = 0; k < runs; k++) configTimes.push(Number(await node(IMPORT_ONLY, [configBundle], env)));
      const configMs = median(configTimes);
      // the floor's calls, recorded with the call after the case's last (call `runs`)
      // A floor that fails is reported and left out (no floor figure, no floor check for the case);
      // the case's own figures still count.
      const floorCalls = path.join(tmp, `${fn}-floor.json`);
      let floorEnv: NodeJS.ProcessEnv | undefined;
      let floorCallCount = 0;
      try {
        const waves = await recordFloorCalls(run, runs, dynamoEndpoint);
        floorCallCount = waves.flat().length;
        // every case's first request reads the table: a floor of no calls would measure nothing
        if (floorCallCount === 0) throw new Error('its floor made no DynamoDB call');
        writeFileSync(floorCalls, JSON.stringify(waves));
        floorEnv = { ...env, SDK_FLOOR_CALLS: floorCalls };
      } catch (err) {
        log(`  ${c.name}: the SDK floor's calls could not be recorded: ${(err as Error).message}`);
      }
      const floors: number[] = [];
      const imports: number[] = [];
      const calls: number[] = [];
      let status = 0;
      for (let i = 0; i < runs; i++) {
        await run.before?.(i);
        const eventFile = path.join(tmp, `${fn}-${i}.json`);
        const event = makeEvent(run.event(i));
        event.headers = {
          ...event.headers,
          [ORIGIN_VERIFY_HEADER]: config.ORIGIN_VERIFY_SECRET || BENCH_SECRET_VALUE,
        };
        writeFileSync(eventFile, JSON.stringify(event));
        const out = JSON.parse(await node(CHILD, [path.join(tmp, fn, mjs), eventFile], env)) as {
          importMs: number;
          callMs: number;
          status: number;
        };
        if (out.status !== c.status)
          throw new Error(`${c.name}: a cold first call answered ${out.status}, expected ${c.status}`);
        imports.push(out.importMs);
        calls.push(out.callMs);
        status = out.status;
        // the floor's fresh process right after the case's, so both see the same machine
        if (floorEnv) {
          try {
            const floor = JSON.parse(await node(CHILD, [floorBundle, eventFile], floorEnv)) as {
              importMs: number;
              callMs: number;
            };
            floors.push(floor.importMs + floor.callMs);
          } catch (err) {
            log(`  ${c.name}: the SDK floor failed: ${(err as Error).message.slice(0, 500)}`);
            floorEnv = undefined;
          }
        }
      }
      const importMs = median(imports);
      const firstCallMs = median(calls);
      const totalMs = median(imports.map((t, k) => t + (calls[k] ?? 0)));
      const floorMs = floors.length === runs ? median(floors) : undefined;
      results.push({
        case: c.name,
        function: fn,
        runs,
        importMs,
        configMs,
        firstCallMs,
        totalMs,
        ...(floorMs === undefined ? {} : { floorMs, floorCalls: floorCallCount }),
        status,
      });
      log(
        `  ${c.name} (${fn}): cold init ${totalMs.toFixed(1)} ms = import ${importMs.toFixed(1)} ms ` +
          `(config ${configMs.toFixed(1)}) + first call ${firstCallMs.toFixed(1)} ms; ` +
          (floorMs === undefined
            ? 'no SDK floor '
            : `SDK floor ${floorMs.toFixed(1)} ms, ${floorCallCount} calls (${(totalMs / floorMs).toFixed(2)} x) `) +
          `(median of ${runs})`,
      );
    }
  } finally {
    await secrets.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  return results;
}
