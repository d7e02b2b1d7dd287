/**
 * `npm start` as a person uses it: the whole stack comes up on the given ports, answers the
 * sample ping, refuses a port that is taken by naming it, and Ctrl-C (SIGINT) leaves nothing behind.
 * The stack is started as `npm run demo` does (`--demo`): one start-up covers both, and the demo's
 * owner shows that its OWNER_EMAILS reaches the functions (the demo's market: tests/e2e/demo.test.ts).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOCAL_DEFAULTS } from '#lib/config.ts';
import { DEMO_PASSWORD } from '#scripts/local/demo.ts';
import { freePorts } from '#scripts/local/ports.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

const PORT_NAMES = [
  'PORT',
  'SES_PORT',
  'DYNAMODB_PORT',
  'LAMBDA_PORT',
  'S3_PORT',
  'WEB_PORT',
  'ISBN_STANDIN_PORT',
] as const;

/**
 * A port for each of the stack's servers, all different: taken one freePort() after another,
 * DynamoDB Local's port was once handed to the stand-in too (EADDRINUSE at start-up).
 */
async function ports() {
  const free = await freePorts(PORT_NAMES.length);
  const chosen = Object.fromEntries(PORT_NAMES.map((name, k) => [name, String(free[k])]));
  return {
    ...(chosen as Record<(typeof PORT_NAMES)[number], string>),
    // the stack's own Open Library stand-in, not the test tier's
    ISBN_LOOKUP_URL: '',
  };
}

function start(
  env: Record<string, string>,
  args: string[] = [],
): {
  child: ChildProcess;
  output: () => string;
  exitCode: () => number | null;
  exited: Promise<number | null>;
} {
  let out = '';
  const child = spawn(TSX, ['scripts/start.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (b: Buffer) => {
    out += b.toString();
  });
  child.stderr?.on('data', (b: Buffer) => {
    out += b.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exitCode: () => child.exitCode ?? (child.signalCode ? -1 : null),
    exited,
  };
}

/**
 * Waits for `check`, failing at once when the stack has exited and naming what it printed either way:
 * a stack that never comes up says why in the failure, not only that it was slow.
 */
async function until(
  what: string,
  check: () => boolean,
  timeoutMs: number,
  stack: { output: () => string; exitCode: () => number | null },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    const ended = stack.exitCode() !== null;
    if (ended || Date.now() > deadline) {
      const why = ended ? `npm start exited with ${stack.exitCode()}` : `timed out after ${timeoutMs} ms`;
      throw new Error(`${why} waiting for ${what}; its last output:\n${stack.output().slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

const javaOnPort = (port: string): boolean => {
  try {
    return (
      execFileSync('pgrep', ['-f', `DynamoDBLocal.jar.*-port ${port}`])
        .toString()
        .trim() !== ''
    );
  } catch {
    return false;
  }
};

describe('npm start', () => {
  it('serves the API on the configured ports, fills the demo market, and stops every child on Ctrl-C', async () => {
    const env = await ports();
    // A running `npm start` of the developer's serves its own build; this one must not overwrite it.
    const distIndex = path.join(ROOT, 'web', 'dist', 'index.html');
    const distBefore = existsSync(distIndex) ? statSync(distIndex).mtimeMs : null;
    const stack = start(env, ['--demo']);
    try {
      await until(
        'the ready banner',
        () => stack.output().includes('Campus Books is running'),
        // longer than start's own 360 s wait for serverless offline, so its message is the one shown
        400_000,
        stack,
      );
      expect(stack.output()).toContain(`http://127.0.0.1:${env.PORT}`);
      expect(stack.output()).toContain(`http://127.0.0.1:${env.SES_PORT}`);
      // The bucket is named after the stage (`local` by default; the test tier's environment says `test`).
      expect(stack.output()).toMatch(
        new RegExp(`Photos {5}http://127\\.0\\.0\\.1:${env.S3_PORT}/campus-books-[a-z]+-photos/photos/`),
      );
      const basic = Buffer.from(
        `${LOCAL_DEFAULTS.SAMPLE_BASIC_USER}:${LOCAL_DEFAULTS.SAMPLE_BASIC_PASSWORD}`,
      ).toString('base64');
      const res = await fetch(`http://127.0.0.1:${env.PORT}/api/ping`, {
        headers: { authorization: `Basic ${basic}` },
      });
      expect(res.status).toBe(200);
      // The web app beside it: its page with the strict CSP, and the API through its /api proxy.
      expect(stack.output()).toContain(`Web app    http://localhost:${env.WEB_PORT}`);
      const page = await fetch(`http://127.0.0.1:${env.WEB_PORT}/cart`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await page.text()).toContain('<div id="root"></div>');
      const built = /building the web app into (\S+) /.exec(stack.output())?.[1] as string;
      expect(existsSync(path.join(built, 'index.html'))).toBe(true);
      expect(existsSync(distIndex) ? statSync(distIndex).mtimeMs : null).toBe(distBefore);
      const proxied = await fetch(`http://127.0.0.1:${env.WEB_PORT}/api/ping`, {
        headers: { authorization: `Basic ${basic}` },
      });
      expect(proxied.status).toBe(200);
      expect(await res.text()).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2}$/);
      expect((await fetch(`http://127.0.0.1:${env.SES_PORT}/store`)).status).toBe(200);
      // The ISBN lookup's source: the Open Library stand-in the banner names, answering as Open Library does.
      const standin = `http://127.0.0.1:${env.ISBN_STANDIN_PORT}`;
      expect(stack.output()).toContain(`ISBN data  ${standin}   (Open Library stand-in;`);
      const books = await fetch(`${standin}/api/books?bibkeys=ISBN:9780262033848&jscmd=data&format=json`);
      expect(((await books.json()) as Record<string, { title: string }>)['ISBN:9780262033848']?.title).toBe(
        'Introduction to Algorithms',
      );
      expect(javaOnPort(env.DYNAMODB_PORT)).toBe(true);
      // The photo store answers, with the bucket the banner names (its stage's: the test tier runs STAGE=test).
      const bucket = /Photos {5}http:\/\/127\.0\.0\.1:\d+\/(campus-books-[a-z]+-photos)\//.exec(
        stack.output(),
      )?.[1];
      expect(bucket).toBeDefined();
      expect((await fetch(`http://127.0.0.1:${env.S3_PORT}/${bucket}`)).status).toBe(200);

      // --demo: the accounts are printed, the books listed, and the demo's owner is an owner.
      await until('the demo accounts', () => stack.output().includes('Demo accounts'), 120_000, stack);
      expect(stack.output()).toContain(`owner.demo@uni.edu     Olivia  owner: the dashboard at /dashboard`);
      const listed = await fetch(`http://127.0.0.1:${env.PORT}/api/books/getBooksNoToken/20/0`);
      expect(((await listed.json()) as { data: unknown[] }).data).toHaveLength(7);
      const login = await fetch(`http://127.0.0.1:${env.PORT}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ emailAddress: 'owner.demo@uni.edu', password: DEMO_PASSWORD }),
      });
      expect(login.status).toBe(200);
      const { token } = ((await login.json()) as { data: { token: string } }).data;
      const level = await fetch(`http://127.0.0.1:${env.PORT}/api/dashboard/permissionLevel`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(((await level.json()) as { data: unknown }).data).toEqual({ permissionType: 2 });
    } finally {
      stack.child.kill('SIGINT');
    }
    expect(await stack.exited).toBe(0);
    expect(javaOnPort(env.DYNAMODB_PORT)).toBe(false);
    // its build folder goes with it
    const built = /building the web app into (\S+) /.exec(stack.output())?.[1] as string;
    expect(existsSync(built)).toBe(false);
    await expect(fetch(`http://127.0.0.1:${env.PORT}/api/ping`)).rejects.toThrow();
  }, 460_000);

  it('refuses to start when a port is taken, naming it', async () => {
    const env = await ports();
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(Number(env.SES_PORT), '127.0.0.1', () => r()));
    try {
      const stack = start(env);
      expect(await stack.exited).toBe(1);
      expect(stack.output()).toMatch(new RegExp(`Port ${env.SES_PORT} \\(SES_PORT\\) is already in use`));
      expect(javaOnPort(env.DYNAMODB_PORT)).toBe(false);
    } finally {
      blocker.close();
    }
  }, 60_000);
});
