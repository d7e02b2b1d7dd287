/**
 * What a packaged function does in a fresh process before and during its first call (issue 19:
 * nothing expensive at load). Each bundle is imported in a new Node process that records what it
 * loads and reads, and answers one request whose DynamoDB call goes to a closed port:
 *  - no undici (an ESM `import 'node:http'` builds the module's facade, whose `WebSocket` getters
 *    load all of undici; esbuild.plugins.cjs `builtinsThroughRequire` loads built-ins with
 *    `require`);
 *  - no shared AWS config file read (lib/aws/client-options.ts settles what the SDK would look up
 *    in `~/.aws/config` on the first call).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { run, unzip } from '#bench/harness/coldstart.ts';
import { makeEvent } from '#tests/helpers/lambda.ts';
import { lambdaFunctions } from '#tests/helpers/template.ts';

const CHILD = `
const [bundle, eventFile] = process.argv.slice(1);
const fsp = process.getBuiltinModule('node:fs/promises');
const fs = process.getBuiltinModule('node:fs');
const event = JSON.parse(fs.readFileSync(eventFile, 'utf8'));
const reads = [];
for (const [m, k] of [[fsp, 'readFile'], [fsp, 'open'], [fs, 'readFile'], [fs, 'readFileSync'], [fs, 'openSync']]) {
  const original = m[k];
  m[k] = function (p, ...rest) { reads.push(String(p)); return original.call(this, p, ...rest); };
}
const mod = await import(bundle);
const res = await mod.handler(event, { awsRequestId: 'cold-path', getRemainingTimeInMillis: () => 30000 });
const loaded = process.moduleLoadList.filter((m) => /undici/.test(m));
// exit once the answer is flushed to the pipe
process.stdout.write('@@' + JSON.stringify({ status: res?.statusCode, headers: res?.headers, body: res?.body, reads, loaded }), () => process.exit(0));
`;

const tmp = mkdtempSync(path.join(os.tmpdir(), 'cold-path-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Unpacks a packaged function and runs its first call in a fresh process. */
async function firstCall(fn: string, input: Parameters<typeof makeEvent>[0]) {
  const zip = path.join(path.dirname(inject('templatePath')), `${fn}.zip`);
  const entries = unzip(readFileSync(zip));
  for (const [name, data] of entries) {
    const p = path.join(tmp, fn, name);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, data);
  }
  const mjs = [...entries.keys()].find((n) => n.endsWith('.mjs'));
  if (!mjs) throw new Error(`${fn}: no .mjs in its zip`);
  const eventFile = path.join(tmp, `${fn}.json`);
  writeFileSync(eventFile, JSON.stringify(makeEvent(input)));
  const home = path.join(tmp, 'home');
  mkdirSync(home, { recursive: true });
  const res = await run(
    process.execPath,
    ['--input-type=module', '-e', CHILD, path.join(tmp, fn, mjs), eventFile],
    {
      ...process.env,
      HOME: home,
      STAGE: 'local',
      TABLE_NAME: 'cold-path',
      // Lambda's root of the unpacked zip
      LAMBDA_TASK_ROOT: path.join(tmp, fn),
      // nothing listens there: the call fails after the SDK has resolved its configuration
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
      AWS_REGION: 'us-east-1',
      LOG_LEVEL: 'CRITICAL',
    },
  );
  if (res.code !== 0)
    throw new Error(`${fn}: the fresh process failed (${res.code}):\n${res.out.slice(-2000)}`);
  return {
    files: [...entries.keys()],
    ...(JSON.parse(res.out.slice(res.out.lastIndexOf('@@') + 2)) as {
      status: number;
      headers?: Record<string, string>;
      body?: string;
      reads: string[];
      loaded: string[];
    }),
  };
}

describe('a packaged function cold', () => {
  it.each([
    [
      'booksGetBooksNoToken',
      { route: '/api/books/getBooksNoToken/{limit}/{skip}', pathParameters: { limit: '40', skip: '0' } },
    ],
    [
      'booksSearchPublic',
      { route: '/api/books/search/public/{query}', pathParameters: { query: 'calculus' } },
    ],
  ])('%s loads no undici and reads no shared AWS config file on its first call', async (fn, input) => {
    const out = await firstCall(fn, input);
    // the call reached DynamoDB's client and failed there: the database is down, the API busy
    expect(out.status).toBe(503);
    expect(out.loaded).toEqual([]);
    expect(out.reads.filter((p) => p.includes(`${path.sep}.aws${path.sep}`))).toEqual([]);
  });

  it('tells the SDK of every function to look up no configured endpoint URL', () => {
    for (const [name, fn] of Object.entries(lambdaFunctions())) {
      const env = (fn.Properties as { Environment?: { Variables?: Record<string, unknown> } }).Environment
        ?.Variables;
      expect(env?.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS, name).toBe('true');
    }
  });
});
