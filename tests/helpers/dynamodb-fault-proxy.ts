/**
 * A fault-injecting HTTP proxy in front of DynamoDB Local. DynamoDB Local runs transactions one at
 * a time and never throttles, so contention is invisible against it alone: through this proxy a
 * test answers chosen calls as the real service does under load (a TransactWriteItems cancelled
 * for `TransactionConflict`, `ThrottlingException`, `ProvisionedThroughputExceededException`, or a
 * call held and never answered), and forwards every other call unchanged. `loseAnswer` loses the
 * answer of a call DynamoDB Local has carried out (a 500 instead, or a dropped connection), as a
 * network or a front end may after the service committed: the client retries what was done.
 *
 * The code under test must reach DynamoDB through `url` (set DYNAMODB_ENDPOINT before the first
 * import of lib/config.ts).
 */
import { afterAll, beforeEach } from 'vitest';
import { HOLD, type LostAnswer, startInterceptingProxy } from './faulty-proxy.ts';

export type { LostAnswer } from './faulty-proxy.ts';

/** The DynamoDB operation of a call (`TransactWriteItems`, `Query`, ...). */
export type Operation = string;

/** An answer instead of DynamoDB's; `hold`: accepted and never answered (a silent socket). */
export type Fault = 'conflict' | 'throttling' | 'provisioned' | 'hold';

export interface DynamoFaultProxy {
  url: string;
  /**
   * Decides, per call, whether to fail it: return a fault, or null to forward it. The default
   * forwards everything.
   */
  decide: (operation: Operation, body: Record<string, unknown>) => Fault | null;
  /**
   * Decides, per forwarded call, whether to lose DynamoDB's answer after it carried the call out:
   * 'server-error' (a 500 instead) or 'drop' (the connection closed), or null to pass it on.
   */
  loseAnswer: (operation: Operation, body: Record<string, unknown>) => LostAnswer | null;
  /** Calls seen per operation (forwarded or failed). */
  calls: Record<Operation, number>;
  /** Faults answered per kind. */
  injected: Record<Fault, number>;
  /** Answers lost after DynamoDB carried the call out, per kind. */
  lost: Record<LostAnswer, number>;
  close: () => Promise<void>;
}

const PREFIX = 'com.amazonaws.dynamodb.v20120810#';

/** The operation (from X-Amz-Target) and JSON body of a call. */
function parsed(target: string | string[] | undefined, raw: Buffer) {
  const operation =
    String(target ?? '')
      .split('.')
      .pop() ?? '';
  let body: Record<string, unknown> = {};
  try {
    body = raw.length ? JSON.parse(raw.toString('utf8')) : {};
  } catch {
    // not JSON: forwarded as it is
  }
  return { operation, body };
}

function faultBody(fault: Exclude<Fault, 'hold'>, body: Record<string, unknown>): Record<string, unknown> {
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
    loseAnswer: () => null,
    calls: {},
    injected: { conflict: 0, throttling: 0, provisioned: 0, hold: 0 },
    lost: { 'server-error': 0, drop: 0 },
  };
  const proxy = await startInterceptingProxy(
    target,
    (req, raw) => {
      const { operation, body } = parsed(req.headers['x-amz-target'], raw);
      state.calls[operation] = (state.calls[operation] ?? 0) + 1;
      const fault = state.decide(operation, body);
      if (!fault) return null;
      state.injected[fault] += 1;
      if (fault === 'hold') return HOLD;
      return {
        status: 400,
        contentType: 'application/x-amz-json-1.0',
        body: JSON.stringify(faultBody(fault, body)),
      };
    },
    (req, raw) => {
      const { operation, body } = parsed(req.headers['x-amz-target'], raw);
      const lost = state.loseAnswer(operation, body);
      if (lost) state.lost[lost] += 1;
      return lost;
    },
  );
  return Object.assign(state, proxy) as DynamoFaultProxy;
}

/**
 * The fault proxy of a test file, in front of its DynamoDB Local: DYNAMODB_ENDPOINT points at it
 * from now on (so call this before anything loads lib/config.ts), every test starts with no fault
 * and no lost answer, and it closes after the file's tests.
 */
export async function faultProxyForFile(): Promise<DynamoFaultProxy> {
  const proxy = await startDynamoFaultProxy(process.env.DYNAMODB_ENDPOINT as string);
  process.env.DYNAMODB_ENDPOINT = proxy.url;
  afterAll(() => proxy.close());
  beforeEach(() => {
    proxy.decide = () => null;
    proxy.loseAnswer = () => null;
  });
  return proxy;
}
