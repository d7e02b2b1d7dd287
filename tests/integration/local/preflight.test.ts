import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '#scripts/local/ports.ts';
import { missingPrerequisites } from '#scripts/local/prereqs.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

/** Runs `npm start`'s script with `env`; resolves with its exit code, output and duration. */
function start(env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; ms: number }> {
  const began = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b));
    child.stderr.on('data', (b: Buffer) => (out += b));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out, ms: Date.now() - began }));
  });
}

describe('npm start checks before it starts anything', () => {
  it('exits at once naming a bad SAMPLE_API_KEY, before any emulator starts', async () => {
    const ports = {
      PORT: String(await freePort()),
      SES_PORT: String(await freePort()),
      DYNAMODB_PORT: String(await freePort()),
      LAMBDA_PORT: String(await freePort()),
    };
    const r = await start({ ...ports, SAMPLE_API_KEY: 'fourteen-chars' });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/\[start\] Invalid configuration for stage "local": SAMPLE_API_KEY/);
    expect(r.out).not.toContain('starting DynamoDB Local');
    expect(r.ms).toBeLessThan(30_000);
  });

  it('says in one line to install Java when there is none, instead of spawn java ENOENT', () => {
    const missing = missingPrerequisites({ root: ROOT, env: { PATH: '/nonexistent' } });
    expect(missing).toHaveLength(1);
    expect(missing[0]).toMatch(
      /^Java was not found \(DynamoDB Local needs it\): install a Java 17\+ runtime/,
    );
    expect(missingPrerequisites({ root: ROOT })).toEqual([]);
  });

  it('says in one line to install Chromium for the browser tests (npm test), not for npm start', () => {
    const env = { PATH: process.env.PATH, CHROMIUM_PATH: '/nonexistent/chromium' };
    expect(missingPrerequisites({ root: ROOT, env, browser: true })).toEqual([
      'Chromium was not found at /nonexistent/chromium (the browser tests need it): install it (e.g. `sudo apt-get install chromium`) or set CHROMIUM_PATH to its binary.',
    ]);
    expect(missingPrerequisites({ root: ROOT, env })).toEqual([]);
  });
});
