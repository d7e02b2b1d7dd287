/**
 * The one DynamoDB DocumentClient of this container, created once.
 *
 * Three middlewares sit on it:
 *  - a guard that refuses every Scan: request code reads by key or index only (see README);
 *  - throttling that outlasts the SDK's own retries becomes `Busy` (a 503 with Retry-After), never
 *    a 500;
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
import { config } from '#lib/config.ts';
import { Busy } from '#lib/errors.ts';
import { isThrottling } from './conditions.ts';
import { meterMiddleware, scanGuardMiddleware } from './metrics.ts';

/** Outside the SDK's retries: throttling still there after them is the service being busy. */
const throttlingAsBusy: InitializeMiddleware<object, MetadataBearer> =
  (next: InitializeHandler<object, MetadataBearer>) => async (args: InitializeHandlerArguments<object>) => {
    try {
      return await next(args);
    } catch (err) {
      if (isThrottling(err)) throw new Busy();
      throw err;
    }
  };

/**
 * A DocumentClient on the configured endpoint. Only maintenance scripts (scripts/migrations/browsing.ts) ask
 * for `allowScan`; the service's `db` below always has the guard.
 */
export function createClient(options: { allowScan?: boolean } = {}): DynamoDBDocumentClient {
  const base = new DynamoDBClient({
    region: config.AWS_REGION,
    ...(config.DYNAMODB_ENDPOINT
      ? {
          endpoint: config.DYNAMODB_ENDPOINT,
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
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

export const db: DynamoDBDocumentClient = createClient();
export const TABLE: string = config.TABLE_NAME;
