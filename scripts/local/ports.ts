import net from 'node:net';

/** Resolves when `port` can be bound on 127.0.0.1; rejects with a message naming it otherwise. */
export function assertPortFree(port: number, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        new Error(
          err.code === 'EADDRINUSE'
            ? `Port ${port} (${name}) is already in use. Stop whatever holds it, or choose another port with ${name}=<port>.`
            : `Port ${port} (${name}) cannot be used: ${err.message}`,
        ),
      );
    });
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}

/** A port that is free right now on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port ?? 0;
}

/**
 * `count` ports free right now on 127.0.0.1, all different. Each is held until all are chosen:
 * ports taken one `freePort()` after another may repeat (the system hands a closed port out
 * again), and a stack given the same port twice fails to start (EADDRINUSE).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    const ports: number[] = [];
    for (let k = 0; k < count; k++) {
      const server = net.createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      const address = server.address();
      ports.push(typeof address === 'object' && address ? address.port : 0);
    }
    return ports;
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it resolves true or `timeoutMs` passes. */
export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`${what} did not become ready within ${Math.round(timeoutMs / 1000)} s`);
}
