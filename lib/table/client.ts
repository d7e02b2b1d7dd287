/**
 * The one DynamoDB client of this container: the AWS SDK's DocumentClient (`@aws-sdk/lib-dynamodb`,
 * plain values in and out) over `DynamoDBClient`, created once, on first use.
 *
 * Settings (docs/data-layer.md, "Time budget"): the SDK's standard retries with at most
 * `maxAttempts` attempts per call, each attempt bounded by a connect timeout and a request timeout,
 * so that a call's every attempt and back-off, times the transaction runner's conflict retries
 * (lib/table/conflict-retry.ts), ends before middy's early timeout answers 503.
 *
 * Around each call, as middleware on the client's stack:
 *  - a guard that refuses every Scan: request code reads by key or index only (see README);
 *  - throttling that outlasts the retries, or a database that cannot be reached or does not answer
 *    in time, becomes `Busy` (a 503 with Retry-After), never a 500;
 *  - an operation meter (lib/table/metrics.ts) that counts calls and consumed capacity, used by the
 *    tests that prove a request costs a fixed number of operations, and by the benchmark.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { InitializeHandlerOptions, InitializeMiddleware, MetadataBearer } from '@smithy/types';
import {
  DYNAMODB_CONNECTION_TIMEOUT_MS,
  DYNAMODB_MAX_ATTEMPTS,
  dynamoClientSettings,
} from '#lib/aws/client-options.ts';
import { config } from '#lib/config.ts';
import { Busy } from '#lib/errors.ts';
import { isThrottling, isUnreachable } from './conditions.ts';
import { meterOn, refuseScansOn } from './metrics.ts';

/** The SDK's throttling back-off base (`@smithy/core` retries, 2026 defaults): retry n waits up to 1 s x 2^n. */
const THROTTLING_BACKOFF_BASE_MS = 1_000;

/**
 * Attempts and timeouts of every DynamoDB call (docs/data-layer.md, "Time budget"). A request
 * timeout counts from the attempt's start (waiting for a socket and connecting included) to the
 * answer's headers; the socket timeout bounds silence after that, while the body arrives. The
 * request timeout is the configuration's: 600 ms on the deployed stages, longer on the emulated
 * ones (DynamoDB Local runs transactions one at a time).
 */
export const DYNAMODB_TIMING = {
  maxAttempts: DYNAMODB_MAX_ATTEMPTS,
  connectionTimeoutMs: DYNAMODB_CONNECTION_TIMEOUT_MS,
  requestTimeoutMs: config.DYNAMODB_REQUEST_TIMEOUT_MS,
  /** the longest one call takes: both attempts' timeouts and the longest back-off between them */
  callBudgetMs: DYNAMODB_MAX_ATTEMPTS * config.DYNAMODB_REQUEST_TIMEOUT_MS + THROTTLING_BACKOFF_BASE_MS,
} as const;

/**
 * The SDK's DynamoDB client with the service's settings and no middleware of its own: the service's
 * `db` below wraps it with the guard, the meter and `Busy`; maintenance scripts (which Scan) and the
 * benchmark's floors wrap it in a plain DocumentClient.
 */
export function dynamoClient(endpoint = config.DYNAMODB_ENDPOINT): DynamoDBClient {
  const { http, ...settings } = dynamoClientSettings({
    region: config.AWS_REGION,
    ...(endpoint ? { endpoint } : {}),
    requestTimeoutMs: DYNAMODB_TIMING.requestTimeoutMs,
  });
  return new DynamoDBClient({ ...settings, requestHandler: new NodeHttpHandler(http) });
}

/** The DocumentClient over `client`: plain values in and out, undefined attributes left out. */
export const documentClient = (client: DynamoDBClient): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });

/** After the retries: throttling still there, or a database that cannot be reached, is the service being busy. */
const busyWhenUnavailable: InitializeMiddleware<object, MetadataBearer> = (next) => async (args) => {
  try {
    return await next(args);
  } catch (err) {
    throw isThrottling(err) || isUnreachable(err) ? new Busy() : err;
  }
};
const BUSY: InitializeHandlerOptions = { step: 'initialize', name: 'busyWhenUnavailable' };

/** The service's client: the settings above, the Scan guard, `Busy` and the meter. */
function createClient(): DynamoDBDocumentClient {
  const client = documentClient(dynamoClient());
  refuseScansOn(client.middlewareStack);
  client.middlewareStack.add(busyWhenUnavailable, BUSY);
  meterOn(client.middlewareStack);
  return client;
}

let serviceClient: DynamoDBDocumentClient | undefined;

/**
 * The service's client, built on first use (nothing but configuration is done at module load, so a
 * cold start pays for the client only in the call that needs it), then kept for the container.
 */
export const db = {
  send: ((command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
    serviceClient ??= createClient();
    return serviceClient.send(command);
  }) as DynamoDBDocumentClient['send'],
};
export const TABLE: string = config.TABLE_NAME;
