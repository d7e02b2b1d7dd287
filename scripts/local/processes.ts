import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

/**
 * Child processes of the local stack. Each runs in its own process group, so stopping it also
 * stops whatever it started (serverless-offline's workers, the JVM); `stopAll` runs on exit.
 */
const children = new Set<ChildProcess>();

export function startChild(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}

/** Stops one child: SIGTERM to its group, SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...children].reverse().map((c) => stopChild(c)));
}

/** Last resort on process exit: synchronous SIGKILL of every group still running. */
process.once('exit', () => {
  for (const child of children) signalGroup(child, 'SIGKILL');
});
