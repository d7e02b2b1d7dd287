/**
 * The one DynamoDB client of this container (lib/db/dynamo.ts), created once, on first use.
 *
 * Around each call:
 *  - a guard that refuses every Scan: request code reads by key or index only (see README);
 *  - throttling that outlasts the retries, or an unreachable database, becomes `Busy` (a 503 with
 *    Retry-After), never a 500;
 *  - an operation meter (lib/db/metrics.ts) that counts calls and consumed capacity, used by the
 *    tests that prove a request costs a fixed number of operations, and by the benchmark.
 */
import { emulatorCredentials } from '#lib/aws/client-options.ts';
import { config } from '#lib/config.ts';
import { Busy } from '#lib/errors.ts';
import { isThrottling, isUnreachable } from './conditions.ts';
import { DynamoClient } from './dynamo.ts';

/** Outside the retries: throttling still there after them, or a database that cannot be reached, is the service being busy. */
const busyWhenUnavailable = (err: unknown): unknown =>
  isThrottling(err) || isUnreachable(err) ? new Busy() : err;

/**
 * A client on the configured endpoint (or `endpoint`). Only maintenance scripts
 * (scripts/migrations/browsing.ts) ask for `allowScan`; the service's `db` below always has the
 * guard. The benchmark's floors pass `meter: false` for an unmetered client.
 */
export function createClient(
  options: { allowScan?: boolean; endpoint?: string; meter?: boolean } = {},
): DynamoClient {
  const endpoint = options.endpoint ?? config.DYNAMODB_ENDPOINT;
  return new DynamoClient({
    region: config.AWS_REGION,
    ...(endpoint ? { endpoint, credentials: emulatorCredentials } : {}),
    maxAttempts: 4,
    allowScan: options.allowScan ?? false,
    meter: options.meter ?? true,
    mapError: busyWhenUnavailable,
  });
}

let serviceClient: DynamoClient | undefined;

/**
 * The service's client, built on first use (nothing but configuration is done at module load, so a
 * cold start pays for the client only in the call that needs it), then kept for the container.
 */
export const db = {
  send: ((command) => {
    serviceClient ??= createClient();
    return serviceClient.send(command);
  }) as DynamoClient['send'],
  destroy: () => serviceClient?.destroy(),
};
export const TABLE: string = config.TABLE_NAME;
