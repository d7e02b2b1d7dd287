/**
 * The project's DynamoDB client: the DocumentClient's contract (lib/db/commands.ts: plain values in
 * and out) over DynamoDB's JSON protocol, signed with SigV4 (lib/aws/sigv4.ts), on one keep-alive
 * connection pool. It replaces the SDK's DynamoDB client on the request path (issue 19): a cold
 * first call no longer builds the SDK's middleware stack, endpoint rules and credential chain, and
 * a function's bundle no longer carries them.
 *
 * It keeps what the service relied on from the SDK:
 *  - errors named as DynamoDB names them (`ConditionalCheckFailedException`,
 *    `TransactionCanceledException` with its `CancellationReasons`, the item of a failed condition
 *    as stored, in attribute values, as the DocumentClient leaves it), with `$metadata`;
 *  - the SDK's standard retries: up to `maxAttempts` calls for throttling (base delay 500 ms),
 *    5xx answers and dropped connections (base 100 ms), full jitter, capped at 20 s;
 *  - a corrected clock when DynamoDB says the request's time is skewed.
 * Credentials: the emulators' when an endpoint is configured; else the environment's (what Lambda
 * gives a function); else, for an operator's script, the SDK's default provider chain, loaded only
 * then.
 */
import type { ClientRequest, Agent as HttpAgent, IncomingMessage, RequestOptions } from 'node:http';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { type Credentials, signPost } from '#lib/aws/sigv4.ts';
import type { Command, Operation } from './commands.ts';
import { isThrottling } from './conditions.ts';
import { metered, refuseScan } from './metrics.ts';

export interface DynamoOptions {
  region: string;
  /** e.g. http://127.0.0.1:8000 (DynamoDB Local); default: the region's public endpoint */
  endpoint?: string;
  /** fixed credentials (the emulators'); default: the environment's, then the SDK's chain */
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

/** An error DynamoDB answered, shaped as the SDK shapes it. */
export interface DynamoError extends Error {
  $fault: 'client' | 'server';
  $metadata: { httpStatusCode?: number; requestId?: string; attempts: number };
  [field: string]: unknown;
}

const MARSHALL = { removeUndefinedValues: true, convertClassInstanceToMap: false } as const;
type Item = Record<string, unknown>;
const toWire = (item: Item) => marshall(item, MARSHALL);
const fromWire = (item: Item) => unmarshall(item as Parameters<typeof unmarshall>[0]);

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

/** Answers that a retry may get past. */
const TRANSIENT = new Set(['InternalServerError', 'ServiceUnavailable', 'RequestTimeout']);
const NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);
const SKEWED = new Set(['RequestTimeTooSkewed', 'RequestExpired', 'InvalidSignatureException']);
const MAX_DELAY_MS = 20_000;
const FIVE_MINUTES_MS = 5 * 60_000;

/** Base delay of a retry of `err`, or null when it is not retried. */
function retryBase(err: unknown): number | null {
  const e = err as Partial<DynamoError> & { code?: string };
  if (isThrottling(err)) return 500;
  if (TRANSIENT.has(e.name ?? '') || (e.$metadata?.httpStatusCode ?? 0) >= 500) return 100;
  if (NETWORK.has(e.code ?? '')) return 100;
  return null;
}

function errorOf(status: number, body: string, requestId: string | undefined, attempts: number): DynamoError {
  let parsed: Record<string, unknown> = {};
  try {
    parsed = body ? (JSON.parse(body) as Record<string, unknown>) : {};
  } catch {
    // not JSON (a proxy's page): the status names the error
  }
  const { __type, message, Message, ...fields } = parsed;
  const name = String(__type ?? `Http${status}`)
    .split('#')
    .pop() as string;
  const err = new Error(String(message ?? Message ?? `DynamoDB answered ${status}`)) as DynamoError;
  Object.assign(err, fields, {
    name,
    $fault: status >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode: status, requestId, attempts },
  });
  return err;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class DynamoClient {
  private readonly url: URL;
  private agent: HttpAgent | undefined;
  private request: ((options: RequestOptions) => ClientRequest) | undefined;
  private credentials: Promise<Credentials & { expiration?: Date }> | undefined;
  private clockOffsetMs = 0;

  constructor(private readonly options: DynamoOptions) {
    this.url = new URL(options.endpoint ?? `https://dynamodb.${options.region}.amazonaws.com`);
  }

  /** Sends one command and answers its output, as the DocumentClient does. */
  async send<I extends object, O extends object>(command: Command<I, O>): Promise<O> {
    const { operation } = command;
    if (!this.options.allowScan) refuseScan(operation);
    const input = { ...command.input } as Record<string, unknown>;
    const call = () => this.call(operation, input);
    const out = this.options.meter === false ? await call() : await metered(operation, input, call);
    return outputFromWire(operation, out) as O;
  }

  /** Closes the kept connections (the process may then exit at once). */
  destroy(): void {
    this.agent?.destroy();
    this.agent = undefined;
  }

  private async call(operation: Operation, input: Record<string, unknown>): Promise<Record<string, unknown>> {
    const body = JSON.stringify(inputToWire(input));
    const maxAttempts = this.options.maxAttempts ?? 3;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.post(operation, body, attempt);
      } catch (err) {
        const base = this.correctedClock(err) ? 0 : retryBase(err);
        if (base === null || attempt >= maxAttempts) throw this.options.mapError?.(err) ?? err;
        await sleep(Math.random() * Math.min(MAX_DELAY_MS, base * 2 ** attempt));
      }
    }
  }

  /**
   * When DynamoDB refused the request's time as skewed and its own clock differs by more than 5
   * minutes, signs from then on by its clock (as the SDK does); true when it did.
   */
  private correctedClock(err: unknown): boolean {
    const serverTime = (err as { serverTime?: number }).serverTime;
    if (serverTime === undefined) return false;
    this.clockOffsetMs = serverTime - Date.now();
    return true;
  }

  private async post(operation: Operation, body: string, attempt: number): Promise<Record<string, unknown>> {
    const request = this.request ?? (await this.connect());
    const headers = signPost({
      credentials: await this.currentCredentials(),
      region: this.options.region,
      service: 'dynamodb',
      host: this.url.host,
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `DynamoDB_20120810.${operation}`,
      },
      body,
      now: new Date(Date.now() + this.clockOffsetMs),
    });
    const res = await new Promise<{ status: number; text: string; response: IncomingMessage }>(
      (resolve, reject) => {
        const req = request({
          hostname: this.url.hostname,
          port: this.url.port || undefined,
          path: '/',
          method: 'POST',
          agent: this.agent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        });
        req.on('response', (response: IncomingMessage) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              text: Buffer.concat(chunks).toString('utf8'),
              response,
            }),
          );
          response.on('error', reject);
        });
        req.on('error', reject);
        req.end(body);
      },
    );
    if (res.status === 200) return res.text ? (JSON.parse(res.text) as Record<string, unknown>) : {};
    const requestId = res.response.headers['x-amzn-requestid'] as string | undefined;
    const err = errorOf(res.status, res.text, requestId, attempt);
    const serverDate = Date.parse(String(res.response.headers.date ?? ''));
    if (
      SKEWED.has(err.name) &&
      Number.isFinite(serverDate) &&
      Math.abs(serverDate - (Date.now() + this.clockOffsetMs)) > FIVE_MINUTES_MS
    ) {
      err.serverTime = serverDate;
    }
    throw err;
  }

  /** Loads http or https (only the one the endpoint needs) and its keep-alive pool, once. */
  private async connect() {
    const http = this.url.protocol === 'https:' ? await import('node:https') : await import('node:http');
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
    const request = http.request as (options: RequestOptions) => ClientRequest;
    this.request = request;
    return request;
  }

  /** The credentials to sign with: resolved once, again when temporary ones near their end. */
  private async currentCredentials(): Promise<Credentials> {
    const held = await this.credentials?.catch(() => undefined);
    if (held && !(held.expiration && held.expiration.getTime() - Date.now() < FIVE_MINUTES_MS)) return held;
    this.credentials = this.resolveCredentials();
    return this.credentials;
  }

  private async resolveCredentials(): Promise<Credentials & { expiration?: Date }> {
    if (this.options.credentials) return this.options.credentials;
    const { AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN } = process.env;
    if (AWS_ACCESS_KEY_ID && AWS_SECRET_ACCESS_KEY)
      return {
        accessKeyId: AWS_ACCESS_KEY_ID,
        secretAccessKey: AWS_SECRET_ACCESS_KEY,
        ...(AWS_SESSION_TOKEN ? { sessionToken: AWS_SESSION_TOKEN } : {}),
      };
    // an operator's script on a profile or SSO: the SDK's chain (not in the functions' bundles)
    const { defaultProvider } = await import('@aws-sdk/credential-provider-node');
    return defaultProvider()();
  }
}

/** What lib/db functions that take a client (the benchmark's floors pass theirs) accept. */
export type DbClient = Pick<DynamoClient, 'send'>;
