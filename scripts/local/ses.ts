import type { Server } from 'node:http';
import sesServer from 'aws-ses-v2-local';

export interface RunningSes {
  url: string;
  stop: () => Promise<void>;
}

/** Starts the SES emulator (aws-ses-v2-local) in this process: web inbox at `/`, JSON at `/store`. */
export async function startSes(port: number): Promise<RunningSes> {
  const start = (sesServer as unknown as { default?: typeof sesServer }).default ?? sesServer;
  const server: Server = await (start as unknown as (c: { host: string; port: number }) => Promise<Server>)({
    host: '127.0.0.1',
    port,
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
