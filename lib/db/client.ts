/**
 * The one DynamoDB DocumentClient of this container, created once, on first use.
 *
 * Three middlewares sit on it:
 *  - a guard that refuses every Scan: request code reads by key or index only (see README);
 *  - throttling that outlasts the SDK's own retries, or an unreachable database, becomes `Busy` (a
 *    503 with Retry-After), never a 500;
 *  - an operation meter (lib/db/metrics.ts) that counts calls and consumed capacity, used by the
 *    tests that prove a request costs a fixed number of operations, and by the benchmark.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type {
  InitializeHandler,
  InitializeHandlerArguments,
  InitializeMiddleware,
  MetadataBearer,
} from '@smithy/types';
import { clientOptions, emulatorCredentials } from '#lib/aws/client-options.ts';
import { config } from '#lib/config.ts';
import { Busy } from '#lib/errors.ts';
import { isThrottling, isUnreachable } from './conditions.ts';
import { meterMiddleware, scanGuardMiddleware } from './metrics.ts';

/**
 * Outside the SDK's retries: throttling still there after them, or a database that cannot be
 * reached, is the service being busy (503 with Retry-After), not a fault of the request.
 */
const throttlingAsBusy: InitializeMiddleware<object, MetadataBearer> =
  (next: InitializeHandler<object, MetadataBearer>) => async (args: InitializeHandlerArguments<object>) => {
    try {
      return await next(args);
    } catch (err) {
      if (isThrottling(err) || isUnreachable(err)) throw new Busy();
      throw err;
    }
  };

/**
 * A DocumentClient on the configured endpoint. Only maintenance scripts (scripts/migrations/browsing.ts) ask
 * for `allowScan`; the service's `db` below always has the guard.
 */
export function createClient(options: { allowScan?: boolean } = {}): DynamoDBDocumentClient {
  const base = new DynamoDBClient({
    ...clientOptions,
    accountIdEndpointMode: 'preferred',
    endpointDiscoveryEnabledProvider: async () => undefined,
    ...(config.DYNAMODB_ENDPOINT
      ? { endpoint: config.DYNAMODB_ENDPOINT, credentials: emulatorCredentials }
      : {}),
    maxAttempts: 4,
  });
  if (!options.allowScan) {
    base.middlewareStack.add(scanGuardMiddleware, { step: 'initialize', name: 'campusBooksScanGuard' });
  }
  base.middlewareStack.add(throttlingAsBusy, { step: 'initialize', name: 'campusBooksThrottlingAsBusy' });
  base.middlewareStack.add(meterMiddleware, { step: 'initialize', name: 'campusBooksMeter' });
  return DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

let serviceClient: DynamoDBDocumentClient | undefined;

/**
 * The service's client, built on first use (nothing but configuration is done at module load, so a
 * cold start pays for the client only in the call that needs it), then kept for the container.
 */
export const db: DynamoDBDocumentClient = new Proxy({} as DynamoDBDocumentClient, {
  get(_target, prop) {
    serviceClient ??= createClient();
    const value: unknown = Reflect.get(serviceClient, prop, serviceClient);
    return typeof value === 'function' ? value.bind(serviceClient) : value;
  },
});
export const TABLE: string = config.TABLE_NAME;
