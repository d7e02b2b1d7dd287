/**
 * Fault-injecting HTTP proxies in front of a real emulator. `startInterceptingProxy` forwards every
 * call unchanged unless `intercept` answers it itself (or holds it: accepted, never answered), and
 * `afterForward` may lose the answer of a call the emulator has carried out (answering 500 instead,
 * or dropping the connection). The SES proxy below answers every call with an SES-style error while
 * `failing` (as an outage or a rejection would look to the SDK), and
 * tests/helpers/dynamodb-fault-proxy.ts answers chosen DynamoDB calls as the service does under load.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';

/** An answer the proxy gives itself instead of forwarding. */
export interface Injected {
  status: number;
  contentType: string;
  body: string;
}

/** A call the proxy accepts and never answers (a silent socket), until the caller gives up. */
export const HOLD = 'hold';

/** What becomes of the answer of a forwarded call: lost in a 500, or in a dropped connection. */
export type LostAnswer = 'server-error' | 'drop';

export interface InterceptingProxy {
  url: string;
  close: () => Promise<void>;
}

export async function startInterceptingProxy(
  target: string,
  intercept: (req: IncomingMessage, body: Buffer) => Injected | typeof HOLD | null,
  afterForward: (req: IncomingMessage, body: Buffer) => LostAnswer | null = () => null,
): Promise<InterceptingProxy> {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const injected = intercept(req, raw);
    if (injected === HOLD) return; // never answered: the socket stays open and silent
    if (injected) {
      res.writeHead(injected.status, { 'content-type': injected.contentType }).end(injected.body);
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
    ) as Record<string, string>;
    try {
      const upstream = await fetch(new URL(req.url ?? '/', target), {
        method: req.method,
        headers,
        body: raw.length ? raw : undefined,
      });
      const answer = Buffer.from(await upstream.arrayBuffer());
      // The emulator has carried the call out; its answer may still be lost on the way back.
      const lost = afterForward(req, raw);
      if (lost === 'drop') {
        res.socket?.destroy();
        return;
      }
      if (lost === 'server-error') {
        res
          .writeHead(500, { 'content-type': 'application/x-amz-json-1.0' })
          .end(JSON.stringify({ __type: 'InternalServerError', message: 'Injected: answer lost' }));
        return;
      }
      res
        .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/xml' })
        .end(answer);
    } catch (err) {
      res.writeHead(502).end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

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

/** The SES proxy: while `failing`, every call is answered with an SES error. */
export async function startFaultyProxy(target: string): Promise<FaultyProxy> {
  const state = { failing: false, refused: 0 };
  const proxy = await startInterceptingProxy(target, () => {
    if (!state.failing) return null;
    state.refused += 1;
    return { status: 400, contentType: 'text/xml', body: SES_ERROR };
  });
  return Object.assign(state, proxy) as FaultyProxy;
}
