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
import { startInterceptingProxy } from './faulty-proxy.ts';

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
  const proxy = await startInterceptingProxy(target, (req, raw) => {
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
    if (!fault) return null;
    state.injected[fault] += 1;
    return {
      status: 400,
      contentType: 'application/x-amz-json-1.0',
      body: JSON.stringify(faultBody(fault, body)),
    };
  });
  return Object.assign(state, proxy) as DynamoFaultProxy;
}
