/**
 * Part 5, cold start: `serverless package --stage dev` builds one minified ESM bundle per function
 * (.serverless/<function>.zip); for each we report the bundle's size and the time a fresh Node
 * process takes to import it (median of several runs), with STAGE=local so configuration loads
 * without SSM.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { ROOT } from './measure.ts';
import { median } from './stats.ts';

export interface BundleResult {
  function: string;
  /** the handler's .mjs inside the zip */
  file: string;
  bytes: number;
  /** median time of `await import(bundle)` in a fresh process, ms */
  importMs: number;
  /** median wall time of the whole fresh process (start, import, exit), ms */
  processMs: number;
  runs: number;
}

/** The entries of a zip file (stored or deflated), read without external tools. */
export function unzip(buffer: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let eocd = buffer.length - 22;
  while (eocd >= 0 && buffer.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('not a zip file');
  const count = buffer.readUInt16LE(eocd + 10);
  let p = buffer.readUInt32LE(eocd + 16);
  for (let k = 0; k < count; k++) {
    if (buffer.readUInt32LE(p) !== 0x02014b50) throw new Error('bad zip central directory');
    const method = buffer.readUInt16LE(p + 10);
    const compressed = buffer.readUInt32LE(p + 20);
    const nameLen = buffer.readUInt16LE(p + 28);
    const extraLen = buffer.readUInt16LE(p + 30);
    const commentLen = buffer.readUInt16LE(p + 32);
    const local = buffer.readUInt32LE(p + 42);
    const name = buffer.toString('utf8', p + 46, p + 46 + nameLen);
    const dataStart = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    const raw = buffer.subarray(dataStart, dataStart + compressed);
    if (!name.endsWith('/')) files.set(name, method === 0 ? Buffer.from(raw) : inflateRawSync(raw));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return files;
}

/** Writes a package's entries (as unzip read them) below `dir`, as Lambda unpacks the package. */
export function writeEntries(entries: Map<string, Buffer>, dir: string): void {
  for (const [name, data] of entries) {
    const p = path.join(dir, name);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, data);
  }
}

/** Runs a command from the repository root, collecting its output and wall time. */
export function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; out: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.stderr.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? 1, out, ms: performance.now() - t }));
  });
}

/** Runs `serverless package --stage dev` (no AWS credentials needed). */
export async function packageFunctions(log: (m: string) => void): Promise<void> {
  const bin = path.join(ROOT, 'node_modules', 'serverless', 'bin', 'serverless.js');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SLS_TELEMETRY_DISABLED: '1',
    SLS_NOTIFICATIONS_MODE: 'off',
  };
  delete env.AWS_ACCESS_KEY_ID;
  delete env.AWS_SECRET_ACCESS_KEY;
  delete env.AWS_PROFILE;
  log('packaging the functions (serverless package --stage dev)...');
  const res = await run(process.execPath, [bin, 'package', '--stage', 'dev'], env);
  if (res.code !== 0) throw new Error(`serverless package failed:\n${res.out.slice(-3000)}`);
}

/** Whether .serverless/ holds packaged functions already. */
export function hasPackagedFunctions(): boolean {
  const dir = path.join(ROOT, '.serverless');
  return existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.zip'));
}

const IMPORT_SCRIPT = `
const t = performance.now();
await import(process.argv[1]);
process.stdout.write(String(performance.now() - t));
`;

/** Sizes and import times of every packaged function. */
export async function measureBundles(runs: number, log: (m: string) => void): Promise<BundleResult[]> {
  const dir = path.join(ROOT, '.serverless');
  const zips = readdirSync(dir)
    .filter((f) => f.endsWith('.zip'))
    .sort();
  if (zips.length === 0) throw new Error('no .serverless/*.zip: packaging produced nothing');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-bundles-'));
  const results: BundleResult[] = [];
  // A fresh process that only loads configuration: no DynamoDB or SES call is made at import.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    STAGE: 'local',
    TABLE_NAME: 'campus-books-local',
    AWS_REGION: 'us-east-1',
    LOG_LEVEL: 'ERROR',
  };
  try {
    for (const zip of zips) {
      const fn = zip.replace(/\.zip$/, '');
      const entries = unzip(readFileSync(path.join(dir, zip)));
      const mjs = [...entries.keys()].find((n) => n.endsWith('.mjs'));
      if (!mjs) throw new Error(`${zip} has no .mjs bundle`);
      // A bundle that ships sharp's native linux-arm64 binaries (the photo processor) cannot be
      // imported on this x64 machine: it is packaged for Lambda's arm64 only, so it is not timed here.
      if (process.arch !== 'arm64' && [...entries.keys()].some((n) => n.includes('@img/sharp-linux-arm64'))) {
        log(`  ${fn}: carries sharp for linux-arm64; not importable on ${process.arch}, import not measured`);
        continue;
      }
      writeEntries(entries, path.join(tmp, fn));
      const target = path.join(tmp, fn, mjs);
      const imports: number[] = [];
      const wall: number[] = [];
      for (let k = 0; k < runs; k++) {
        const res = await run(process.execPath, ['--input-type=module', '-e', IMPORT_SCRIPT, target], env);
        if (res.code !== 0) throw new Error(`importing ${fn}'s bundle failed:\n${res.out.slice(-2000)}`);
        imports.push(Number(res.out.trim()));
        wall.push(res.ms);
      }
      const bytes = (entries.get(mjs) as Buffer).length;
      results.push({
        function: fn,
        file: mjs,
        bytes,
        importMs: median(imports),
        processMs: median(wall),
        runs,
      });
      log(
        `  ${fn}: ${(bytes / 1024).toFixed(0)} KB, import ${median(imports).toFixed(1)} ms (median of ${runs})`,
      );
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return results;
}
