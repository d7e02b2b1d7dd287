/**
 * Waiting for a process to go quiet: the cold-init phase times fresh processes right after the
 * heavy phases (seeding, the latency loops, the concurrent writes), on a machine of two cores. It
 * first waits until DynamoDB Local's Java process has no leftover work (a collection, a
 * compaction) that would share the cores with the processes being timed.
 */
import { readFileSync } from 'node:fs';

/** Seconds of CPU `pid` has used (Linux's /proc; CLK_TCK is 100), or undefined when unreadable. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // after "pid (command) " come the fields from the 3rd on: utime and stime are the 14th and 15th
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

export interface QuietResult {
  /** how long it waited, ms */
  waitedMs: number;
  /** whether the process went quiet (false: `maxMs` ran out, or no /proc) */
  quiet: boolean;
}

/**
 * Waits until `pid` uses less than `share` of a core over a `windowMs` window, at most `maxMs`.
 */
export async function waitUntilQuiet(
  pid: number | undefined,
  options: { windowMs?: number; share?: number; maxMs?: number } = {},
): Promise<QuietResult> {
  const { windowMs = 500, share = 0.1, maxMs = 60_000 } = options;
  const started = performance.now();
  if (pid === undefined) return { waitedMs: 0, quiet: false };
  let last = cpuSeconds(pid);
  if (last === undefined) return { waitedMs: 0, quiet: false };
  while (performance.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const now = cpuSeconds(pid);
    if (now === undefined) break;
    if ((now - last) / (windowMs / 1000) < share)
      return { waitedMs: performance.now() - started, quiet: true };
    last = now;
  }
  return { waitedMs: performance.now() - started, quiet: false };
}
