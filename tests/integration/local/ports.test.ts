/**
 * The ports a test hands a whole local stack (tests/e2e/local-stack.test.ts): all different, and
 * each free once chosen. Taken one freePort() after another, two of seven were once the same.
 */
import net from 'node:net';
import { expect, it } from 'vitest';
import { freePorts } from '#scripts/local/ports.ts';

const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

it('gives as many different ports as asked, each free to bind once they are chosen', async () => {
  for (let round = 0; round < 5; round++) {
    const ports = await freePorts(40);
    expect(ports).toHaveLength(40);
    expect(new Set(ports).size).toBe(40);
    for (const port of ports) {
      expect(port).toBeGreaterThan(0);
      expect(await bindable(port)).toBe(true);
    }
  }
});
