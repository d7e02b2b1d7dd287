/**
 * DynamoDB operation meter and Scan guard, as middleware on the service's SDK client
 * (lib/table/client.ts): each sees every call's DynamoDB operation and DocumentClient input once per
 * send (outside the SDK's retries).
 *
 * The meter records only while a measurement is running (tests, benchmark): outside one it
 * keeps nothing, so a warm production container never accumulates records. `ReturnConsumedCapacity`
 * is requested only while a capacity measurement is running, so production requests are unchanged.
 */

import type {
  HandlerExecutionContext,
  InitializeMiddleware,
  MetadataBearer,
  MiddlewareStack,
} from '@smithy/types';

// biome-ignore lint/suspicious/noExplicitAny: a DynamoDB client's stack, whatever its command types
type Stack = MiddlewareStack<any, any>;

export class ScanForbiddenError extends Error {
  override name = 'ScanForbiddenError';
  constructor() {
    super('DynamoDB Scan is not allowed: read by key or index (see README, "Key schema")');
  }
}

export interface OperationRecord {
  command: string;
  capacityUnits: number;
  /** of them, each global secondary index's (DynamoDB's `ConsumedCapacity.GlobalSecondaryIndexes`) */
  indexUnits?: Record<string, number>;
  /** the call was refused (e.g. a failed condition): still a round trip, its capacity unreported */
  failed?: true;
}

interface MeterState {
  measuring: boolean;
  operations: OperationRecord[];
  captureCapacity: boolean;
}

const state: MeterState = { measuring: false, operations: [], captureCapacity: false };

/** Who watches each call's operation and input (tests that check which items a request touches). */
type CallWatcher = (operation: string, input: Readonly<Record<string, unknown>>) => void;
const watchers = new Set<CallWatcher>();

/** Calls `watcher` with every call's operation and input until the returned function is called. */
export function watchCalls(watcher: CallWatcher): () => void {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

/** The operations that can report the capacity they consumed. */
const CAPACITY_OPERATIONS = new Set([
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactWriteItems',
  'TransactGetItems',
]);

type Consumed = {
  CapacityUnits?: number;
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
};

const consumedOf = (output: unknown): Consumed[] => {
  const cc = (output as { ConsumedCapacity?: Consumed | Consumed[] } | undefined)?.ConsumedCapacity;
  return cc ? (Array.isArray(cc) ? cc : [cc]) : [];
};

/** A call's consumed capacity, in all and per global secondary index. */
function capacityOf(output: unknown): Pick<OperationRecord, 'capacityUnits' | 'indexUnits'> {
  const list = consumedOf(output);
  const indexUnits: Record<string, number> = {};
  for (const c of list)
    for (const [name, u] of Object.entries(c.GlobalSecondaryIndexes ?? {}))
      indexUnits[name] = (indexUnits[name] ?? 0) + (u.CapacityUnits ?? 0);
  return {
    capacityUnits: list.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0),
    ...(Object.keys(indexUnits).length > 0 ? { indexUnits } : {}),
  };
}

/** DynamoDB's name of the operation a middleware context carries ('GetItemCommand' -> 'GetItem'). */
const operationOf = (context: HandlerExecutionContext): string =>
  String(context.commandName ?? '').replace(/Command$/, '');

/** Refuses every Scan before it is sent. */
const refuseScan: InitializeMiddleware<object, MetadataBearer> = (next, context) => async (args) => {
  if (operationOf(context) === 'Scan') throw new ScanForbiddenError();
  return next(args);
};

/**
 * Records each call (its operation and input, seen by the watchers) and, while a measurement runs,
 * its consumed capacity (asking for it with ReturnConsumedCapacity while capturing).
 */
const meter: InitializeMiddleware<object, MetadataBearer> = (next, context) => async (args) => {
  const operation = operationOf(context);
  const input = args.input as Record<string, unknown>;
  for (const watch of watchers) watch(operation, input);
  if (!state.measuring) return next(args);
  const ask = state.captureCapacity && CAPACITY_OPERATIONS.has(operation) && !input.ReturnConsumedCapacity;
  // A refused call (a failed condition, a cancelled transaction) is still a call: count it, or a
  // wasted conditional write would not show in the benchmark's calls.
  try {
    // INDEXES: the total as TOTAL gives it, and each index's share of it
    const out = await next(ask ? { ...args, input: { ...input, ReturnConsumedCapacity: 'INDEXES' } } : args);
    state.operations.push({ command: operation, ...capacityOf(out.output) });
    return out;
  } catch (err) {
    state.operations.push({ command: operation, capacityUnits: 0, failed: true });
    throw err;
  }
};

/** Puts the Scan guard on a client's middleware stack, outside everything else. */
export const refuseScansOn = (stack: Stack): void =>
  stack.add(refuseScan, { step: 'initialize', priority: 'high', name: 'refuseScan' });

/** Puts the meter on a client's middleware stack, inside the service's other middleware. */
export const meterOn = (stack: Stack): void =>
  stack.add(meter, { step: 'initialize', priority: 'low', name: 'meter' });

/** Starts a fresh measurement; `capacity` also asks DynamoDB for consumed capacity. */
export function startMeasuring(options: { capacity?: boolean } = {}): void {
  state.measuring = true;
  state.operations = [];
  state.captureCapacity = options.capacity ?? false;
}

/** Ends the measurement: the meter records nothing until the next startMeasuring. */
export function stopMeasuring(): void {
  state.measuring = false;
  state.operations = [];
  state.captureCapacity = false;
}

/** The operations recorded since startMeasuring, and their totals. */
export function measured(): { operations: OperationRecord[]; calls: number; capacityUnits: number } {
  const operations = [...state.operations];
  return {
    operations,
    calls: operations.length,
    capacityUnits: operations.reduce((s, o) => s + o.capacityUnits, 0),
  };
}
