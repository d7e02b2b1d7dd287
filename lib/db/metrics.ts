/**
 * DynamoDB operation meter and Scan guard, as SDK middlewares.
 *
 * The meter records only while a measurement is running (tests, benchmark): outside one it
 * keeps nothing, so a warm production container never accumulates records. `ReturnConsumedCapacity`
 * is requested only while a capacity measurement is running, so production requests are unchanged.
 */
import type {
  InitializeHandler,
  InitializeHandlerArguments,
  InitializeMiddleware,
  MetadataBearer,
} from '@smithy/types';

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

const CAPACITY_COMMANDS = new Set([
  'GetItemCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'QueryCommand',
  'BatchGetItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
  'TransactGetItemsCommand',
]);

/** 'QueryCommand' -> 'Query' */
const operationName = (commandName: string | undefined): string =>
  (commandName ?? 'unknown').replace(/Command$/, '');

type Consumed = { CapacityUnits?: number };

function capacityOf(output: unknown): number {
  const cc = (output as { ConsumedCapacity?: Consumed | Consumed[] } | undefined)?.ConsumedCapacity;
  if (!cc) return 0;
  const list = Array.isArray(cc) ? cc : [cc];
  return list.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
}

/** Refuses every Scan issued through the project's client. */
export const scanGuardMiddleware: InitializeMiddleware<object, MetadataBearer> =
  (next: InitializeHandler<object, MetadataBearer>, context) =>
  async (args: InitializeHandlerArguments<object>) => {
    if (operationName(context.commandName) === 'Scan') throw new ScanForbiddenError();
    return next(args);
  };

/** Records each call (and its consumed capacity while capturing). */
export const meterMiddleware: InitializeMiddleware<object, MetadataBearer> =
  (next: InitializeHandler<object, MetadataBearer>, context) =>
  async (args: InitializeHandlerArguments<object>) => {
    if (!state.measuring) return next(args);
    const command = operationName(context.commandName);
    const input = args.input as Record<string, unknown>;
    if (
      state.captureCapacity &&
      CAPACITY_COMMANDS.has(context.commandName ?? '') &&
      !input.ReturnConsumedCapacity
    ) {
      input.ReturnConsumedCapacity = 'TOTAL';
    }
    // A refused call (a failed condition, a cancelled transaction) is still a call: count it, or a
    // wasted conditional write would not show in the benchmark's calls.
    let result: Awaited<ReturnType<typeof next>>;
    try {
      result = await next(args);
    } catch (err) {
      state.operations.push({ command, capacityUnits: 0, failed: true });
      throw err;
    }
    state.operations.push({ command, capacityUnits: capacityOf(result.output) });
    return result;
  };

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
