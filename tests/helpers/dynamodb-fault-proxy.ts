/**
 * A fault-injecting HTTP proxy in front of DynamoDB Local. DynamoDB Local runs transactions one at
 * a time and never throttles, so contention is invisible against it alone: through this proxy a
 * test answers chosen calls as the real service does under load (a TransactWriteItems cancelled
 * for `TransactionConflict`, `ThrottlingException`, `ProvisionedThroughputExceededException`),
 * and forwards every other call unchanged.
 *
 * The code under test must reach DynamoDB through `url` (set DYNAMODB_ENDPOINT before the first
 * import of lib/config.ts).
 */
import { createServer, type Server } from 'node:http';

/** The DynamoDB operation of a call (`TransactWriteItems`, `Query`, ...). */
export type Operation = string;

export type Fault = 'conflict' | 'throttling' | 'provisioned';

export interface DynamoFaultProxy {
  url: string;
  /**
   * Decides, per call, whether to fail it: return a fault, or null to forward it. The default
   * forwards everything.
   */
  decide: (operation: Operation, body: Record<string, unknown>) => Fault | null;
  /** Calls seen per operation (forwarded or failed). */
  calls: Record<Operation, number>;
  /** Faults answered per kind. */
  injected: Record<Fault, number>;
  close: () => Promise<void>;
}

const PREFIX = 'com.amazonaws.dynamodb.v20120810#';

function faultBody(fault: Fault, body: Record<string, unknown>): Record<string, unknown> {
  if (fault === 'throttling') return { __type: `${PREFIX}ThrottlingException`, message: 'Rate exceeded' };
  if (fault === 'provisioned')
    return {
      __type: `${PREFIX}ProvisionedThroughputExceededException`,
      message: 'The level of configured provisioned throughput for the table was exceeded.',
    };
  // As the service answers a transaction that raced another: every item's reason, one of them a
  // conflict (the others None).
  const count = Array.isArray(body.TransactItems) ? body.TransactItems.length : 1;
  const reasons = Array.from({ length: count }, (_, i) => ({
    Code: i === 0 ? 'TransactionConflict' : 'None',
  }));
  return {
    __type: `${PREFIX}TransactionCanceledException`,
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
    CancellationReasons: reasons,
  };
}

export async function startDynamoFaultProxy(target: string): Promise<DynamoFaultProxy> {
  const state: Omit<DynamoFaultProxy, 'url' | 'close'> = {
    decide: () => null,
    calls: {},
    injected: { conflict: 0, throttling: 0, provisioned: 0 },
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const operation =
      String(req.headers['x-amz-target'] ?? '')
        .split('.')
        .pop() ?? '';
    state.calls[operation] = (state.calls[operation] ?? 0) + 1;
    let body: Record<string, unknown> = {};
    try {
      body = raw.length ? JSON.parse(raw.toString('utf8')) : {};
    } catch {
      // not JSON: forwarded as it is
    }
    const fault = state.decide(operation, body);
    if (fault) {
      state.injected[fault] += 1;
      res
        .writeHead(400, { 'content-type': 'application/x-amz-json-1.0' })
        .end(JSON.stringify(faultBody(fault, body)));
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
      res
        .writeHead(upstream.status, {
          'content-type': upstream.headers.get('content-type') ?? 'application/x-amz-json-1.0',
        })
        .end(answer);
    } catch (err) {
      res.writeHead(502).end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as DynamoFaultProxy;
}
