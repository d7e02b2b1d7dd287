/**
 * A fault-injecting HTTP proxy in front of a real emulator: while `failing`, it answers every call
 * with an SES-style error (as an outage or a rejection would look to the SDK); otherwise it
 * forwards the call unchanged. Used to prove the consumer survives an SES failure.
 */
import { createServer, type Server } from 'node:http';

export interface FaultyProxy {
  url: string;
  failing: boolean;
  /** how many calls were answered with an error */
  refused: number;
  close: () => Promise<void>;
}

const SES_ERROR =
  '<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type>' +
  '<Code>MessageRejected</Code><Message>Injected failure</Message></Error><RequestId>test</RequestId></ErrorResponse>';

export async function startFaultyProxy(target: string): Promise<FaultyProxy> {
  const state = { failing: false, refused: 0 };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (state.failing) {
      state.refused += 1;
      res.writeHead(400, { 'content-type': 'text/xml' }).end(SES_ERROR);
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
    ) as Record<string, string>;
    const upstream = await fetch(new URL(req.url ?? '/', target), {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await upstream.arrayBuffer());
    res
      .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/xml' })
      .end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as FaultyProxy;
}
