/**
 * DynamoDB operation meter and Scan guard, called by the project's client (lib/db/dynamo.ts) around
 * each call.
 *
 * The meter records only while a measurement is running (tests, benchmark): outside one it
 * keeps nothing, so a warm production container never accumulates records. `ReturnConsumedCapacity`
 * is requested only while a capacity measurement is running, so production requests are unchanged.
 */

export class ScanForbiddenError extends Error {
  override name = 'ScanForbiddenError';
  constructor() {
    super('DynamoDB Scan is not allowed: read by key or index (see README, "Key schema")');
  }
}

export interface OperationRecord {
  command: string;
  capacityUnits: number;
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

type Consumed = { CapacityUnits?: number };

function capacityOf(output: unknown): number {
  const cc = (output as { ConsumedCapacity?: Consumed | Consumed[] } | undefined)?.ConsumedCapacity;
  if (!cc) return 0;
  const list = Array.isArray(cc) ? cc : [cc];
  return list.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
}

/** Refuses a Scan (`operation` is DynamoDB's name, e.g. 'Scan', 'GetItem'). */
export function refuseScan(operation: string): void {
  if (operation === 'Scan') throw new ScanForbiddenError();
}

/**
 * Runs one call of `operation` (DynamoDB's name, e.g. 'GetItem') with `input` (whose
 * ReturnConsumedCapacity it sets while capturing), recording it and its consumed capacity while a
 * measurement runs.
 */
export async function metered<T>(
  operation: string,
  input: Record<string, unknown>,
  call: () => Promise<T>,
): Promise<T> {
  for (const watch of watchers) watch(operation, input);
  if (!state.measuring) return call();
  if (state.captureCapacity && CAPACITY_OPERATIONS.has(operation) && !input.ReturnConsumedCapacity) {
    input.ReturnConsumedCapacity = 'TOTAL';
  }
  // A refused call (a failed condition, a cancelled transaction) is still a call: count it, or a
  // wasted conditional write would not show in the benchmark's calls.
  let output: T;
  try {
    output = await call();
  } catch (err) {
    state.operations.push({ command: operation, capacityUnits: 0, failed: true });
    throw err;
  }
  state.operations.push({ command: operation, capacityUnits: capacityOf(output) });
  return output;
}

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
