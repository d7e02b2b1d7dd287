import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuSeconds, waitUntilQuiet } from '#bench/harness/quiet.ts';

const children: ChildProcess[] = [];
const child = (script: string) => {
  const c = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  children.push(c);
  return c;
};

describe('waitUntilQuiet (the cold-init phase waits for DynamoDB Local to go quiet)', () => {
  afterEach(() => {
    for (const c of children.splice(0)) c.kill('SIGKILL');
  });

  it('reads the CPU a process has used', async () => {
    const busy = child('const end = Date.now() + 10000; while (Date.now() < end) {}');
    // On a loaded machine the busy child gets only a share of a core: poll until it has had 0.2 s.
    let used = 0;
    for (let waited = 0; used <= 0.2 && waited < 8000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      used = cpuSeconds(busy.pid as number) ?? 0;
    }
    expect(used).toBeGreaterThan(0.2);
    expect(cpuSeconds(2 ** 22 + 12345)).toBeUndefined();
  });

  it('answers at once for an idle process and waits out a busy one until its time runs out', async () => {
    const idle = child('setTimeout(() => {}, 10000)');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const calm = await waitUntilQuiet(idle.pid, { windowMs: 200, maxMs: 3000 });
    expect(calm.quiet).toBe(true);
    expect(calm.waitedMs).toBeLessThan(1000);

    const busy = child('const end = Date.now() + 5000; while (Date.now() < end) {}');
    // share 0.01: a spinning child on a loaded 2-core machine may get only a tenth of a core
    const loud = await waitUntilQuiet(busy.pid, { windowMs: 200, share: 0.01, maxMs: 1000 });
    expect(loud.quiet).toBe(false);
    expect(loud.waitedMs).toBeGreaterThanOrEqual(1000);
  });

  it('does not wait without a process to watch', async () => {
    expect(await waitUntilQuiet(undefined)).toEqual({ waitedMs: 0, quiet: false });
  });
});
