/**
 * Cold init as a user feels it (issue 19): a fresh Node process imports a packaged function's
 * bundle and answers its first request, whose first DynamoDB call goes to DynamoDB Local (a new
 * client, a new connection). Reported per case: import, the configuration's part of it, and the
 * first call, medians of `runs` fresh processes.
 *
 * "config" is measured apart, as a fresh process importing `lib/config.ts` bundled alone (zod and
 * the environment check; the stage is `local`, so no secret is fetched: on AWS the function's
 * secrets come on top, one Secrets Manager call each, in parallel). "import" is the bundle's whole
 * import (configuration included); the shares are import - config, config, and the first call.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { makeEvent } from '#tests/helpers/lambda.ts';
import { run, unzip, writeEntries } from './coldstart.ts';
import { ROOT } from './measure.ts';
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

async function node(script: string, args: string[]): Promise<string> {
  const res = await run(process.execPath, ['--input-type=module', '-e', script, ...args], { ...process.env });
  if (res.code !== 0) throw new Error(`fresh process failed (${res.code}):\n${res.out.slice(-2000)}`);
  // stderr shares `out` (a warning, say): the result is what follows the last marker
  return res.out.slice(res.out.lastIndexOf('@@') + 2);
}

export interface ColdInitCase {
  c: BenchCase;
  run: CaseRun;
}

/**
 * Measures every case whose handler is packaged (.serverless/<function>.zip). Run with the
 * emulators up and the table seeded; `cases[i].run` must allow `runs` calls (i = 0 .. runs - 1).
 */
export async function measureColdInit(
  cases: ColdInitCase[],
  runs: number,
  log: (m: string) => void,
): Promise<ColdInitResult[]> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-coldinit-'));
  const results: ColdInitResult[] = [];
  try {
    const configBundle = path.join(tmp, 'config.mjs');
    await build({
      entryPoints: [path.join(ROOT, 'lib', 'config.ts')],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'node',
      outfile: configBundle,
      logLevel: 'silent',
      // as in the functions' bundles (serverless.yml esbuild `exclude`): the Lambda runtime provides
      // it, and only a deployed stage loads it; bundled here, its parse alone doubled the figure
      external: ['@aws-sdk/client-secrets-manager'],
    });
    const configTimes: number[] = [];
    for (let k = 0; k < runs; k++) configTimes.push(Number(await node(IMPORT_ONLY, [configBundle])));
    const configMs = median(configTimes);

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
      const imports: number[] = [];
      const calls: number[] = [];
      let status = 0;
      for (let i = 0; i < runs; i++) {
        await run.before?.(i);
        const eventFile = path.join(tmp, `${fn}-${i}.json`);
        writeFileSync(eventFile, JSON.stringify(makeEvent(run.event(i))));
        const out = JSON.parse(await node(CHILD, [path.join(tmp, fn, mjs), eventFile])) as {
          importMs: number;
          callMs: number;
          status: number;
        };
        if (out.status !== c.status)
          throw new Error(`${c.name}: a cold first call answered ${out.status}, expected ${c.status}`);
        imports.push(out.importMs);
        calls.push(out.callMs);
        status = out.status;
      }
      const importMs = median(imports);
      const firstCallMs = median(calls);
      const totalMs = median(imports.map((t, k) => t + (calls[k] ?? 0)));
      results.push({ case: c.name, function: fn, runs, importMs, configMs, firstCallMs, totalMs, status });
      log(
        `  ${c.name} (${fn}): cold init ${totalMs.toFixed(1)} ms = import ${importMs.toFixed(1)} ms ` +
          `(config ${configMs.toFixed(1)}) + first call ${firstCallMs.toFixed(1)} ms (median of ${runs})`,
      );
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return results;
}
