/**
 * The project's DynamoDB client: the DocumentClient's contract (lib/db/commands.ts: plain values in
 * and out) over DynamoDB's JSON protocol, through the small signed transport of
 * lib/aws/json-client.ts. It replaces the SDK's DynamoDB client on the request path (issue 19): a
 * cold first call no longer builds the SDK's middleware stack, endpoint rules and credential chain,
 * and a function's bundle no longer carries them.
 *
 * Errors keep DynamoDB's names and fields as the SDK shapes them (`ConditionalCheckFailedException`,
 * `TransactionCanceledException` with its `CancellationReasons`, the item of a failed condition as
 * stored, in attribute values, as the DocumentClient leaves it); retries, credentials and the clock
 * are the transport's (the SDK's standard retries).
 */
import { convertToNative, marshall } from '@aws-sdk/util-dynamodb';
import { AwsJsonClient } from '#lib/aws/json-client.ts';
import type { Credentials } from '#lib/aws/sigv4.ts';
import type { Command, Operation } from './commands.ts';
import { metered, refuseScan } from './metrics.ts';

export interface DynamoOptions {
  region: string;
  /** e.g. http://127.0.0.1:8000 (DynamoDB Local); default: the region's public endpoint */
  endpoint?: string;
  /** fixed credentials (the emulators'); default: the transport's (environment, then the SDK's chain) */
  credentials?: Credentials;
  /** calls in all, the first included (the SDK's default is 3; the service asks 4) */
  maxAttempts?: number;
  /** let Scan through (maintenance scripts only) */
  allowScan?: boolean;
  /** record calls and capacity in lib/db/metrics.ts (default true) */
  meter?: boolean;
  /** what to throw instead of an error that remains after the retries (default: the error) */
  mapError?: (err: unknown) => unknown;
}

const MARSHALL = { removeUndefinedValues: true, convertClassInstanceToMap: false } as const;
type Item = Record<string, unknown>;
const toWire = (item: Item) => marshall(item, MARSHALL);
type AttributeValue = Parameters<typeof convertToNative>[0];

/**
 * An item off the wire, as the DocumentClient's `unmarshall` answers it. Strings and numbers
 * within the safe integer range, nearly every attribute read, are converted here directly; the
 * rest (lists, maps, sets, booleans, null, larger numbers) by util-dynamodb. The generic path cost
 * a deep skip's 2,000 keys-only entries about 5 ms of a cold first call, a tenth of that this way.
 */
export function fromWire(item: Item): Item {
  const out: Item = {};
  for (const name of Object.keys(item)) {
    const value = item[name] as AttributeValue;
    const n = value.N === undefined ? Number.NaN : Number(value.N);
    if (value.S !== undefined) out[name] = value.S;
    else if (Math.abs(n) <= Number.MAX_SAFE_INTEGER) out[name] = n;
    else out[name] = convertToNative(value);
  }
  return out;
}

/** Input fields that hold an item, a key or values, marshalled whole; the rest is structure. */
const DATA_FIELDS = new Set(['Key', 'Item', 'ExclusiveStartKey', 'ExpressionAttributeValues']);

/** A DocumentClient input as the wire wants it: every item, key and value marshalled. */
function inputToWire(value: unknown, field?: string): unknown {
  if (value === undefined) return undefined; // an absent field (JSON leaves it out)
  if (field === 'Keys' && Array.isArray(value)) return value.map((k) => toWire(k as Item));
  if (field && DATA_FIELDS.has(field)) return toWire(value as Item);
  if (Array.isArray(value)) return value.map((v) => inputToWire(v));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inputToWire(v, k)]));
  return value;
}

const mapRecord = <T, U>(record: Record<string, T> | undefined, f: (v: T) => U) =>
  record && Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));

type WriteRequest = { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } };

/** A wire output as the DocumentClient answers it: items, keys and attributes unmarshalled. */
function outputFromWire(operation: Operation, out: Record<string, unknown>): Record<string, unknown> {
  const result = { ...out };
  if (out.Item) result.Item = fromWire(out.Item as Item);
  if (out.Attributes) result.Attributes = fromWire(out.Attributes as Item);
  if (out.Items) result.Items = (out.Items as Item[]).map(fromWire);
  if (out.LastEvaluatedKey) result.LastEvaluatedKey = fromWire(out.LastEvaluatedKey as Item);
  if (operation === 'BatchGetItem') {
    result.Responses = mapRecord(out.Responses as Record<string, Item[]>, (items) => items.map(fromWire));
    result.UnprocessedKeys = mapRecord(out.UnprocessedKeys as Record<string, { Keys: Item[] }>, (k) => ({
      ...k,
      Keys: k.Keys.map(fromWire),
    }));
  }
  if (operation === 'BatchWriteItem') {
    result.UnprocessedItems = mapRecord(out.UnprocessedItems as Record<string, WriteRequest[]>, (list) =>
      list.map((r) => ({
        ...(r.PutRequest && { PutRequest: { Item: fromWire(r.PutRequest.Item) } }),
        ...(r.DeleteRequest && { DeleteRequest: { Key: fromWire(r.DeleteRequest.Key) } }),
      })),
    );
  }
  if (operation === 'TransactGetItems') {
    result.Responses = (out.Responses as { Item?: Item }[] | undefined)?.map((r) =>
      r.Item ? { Item: fromWire(r.Item) } : {},
    );
  }
  return result;
}

export class DynamoClient {
  private readonly transport: AwsJsonClient;

  constructor(private readonly options: DynamoOptions) {
    this.transport = new AwsJsonClient({
      service: 'dynamodb',
      targetPrefix: 'DynamoDB_20120810',
      jsonVersion: '1.0',
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      maxAttempts: options.maxAttempts ?? 3,
    });
  }

  /** Sends one command and answers its output, as the DocumentClient does. */
  async send<I extends object, O extends object>(command: Command<I, O>): Promise<O> {
    const { operation } = command;
    if (!this.options.allowScan) refuseScan(operation);
    const input = { ...command.input } as Record<string, unknown>;
    const call = async () => {
      try {
        return await this.transport.call(operation, JSON.stringify(inputToWire(input)));
      } catch (err) {
        throw this.options.mapError?.(err) ?? err;
      }
    };
    const out = this.options.meter === false ? await call() : await metered(operation, input, call);
    return outputFromWire(operation, out) as O;
  }

  /** Closes the kept connections (the process may then exit at once). */
  destroy(): void {
    this.transport.destroy();
  }
}

/** What lib/db functions that take a client (the benchmark's floors pass theirs) accept. */
export type DbClient = Pick<DynamoClient, 'send'>;
