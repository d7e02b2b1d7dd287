/**
 * Settings every AWS SDK client of the service is built with (issue 19: cold starts).
 *
 * Left unset, each of these settings is looked up on the client's first call: first in the
 * environment, then in the shared config files (`~/.aws/config`, `~/.aws/credentials`), whose
 * asynchronous read (absent on Lambda, but still attempted) cost tens of milliseconds of a cold
 * first call in the benchmark's profiles. The service decides them here instead, so a first call
 * reads no file. The SDK's own defaults are kept: standard retries, no FIPS or dual-stack
 * endpoints, endpoint discovery off, account-based endpoints where DynamoDB offers them, clock
 * skew corrected. A deployed function has no endpoint set, so the SDK would also look for a
 * configured endpoint URL: serverless.yml sets `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` for that.
 *
 * The region is the caller's to add (`config.AWS_REGION`): this module imports no configuration,
 * so lib/config.ts can build its Secrets Manager client with it while the configuration loads.
 */

/** Local emulators take any credentials; deployed functions use their role's (from the environment). */
export const emulatorCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

export const clientOptions = {
  defaultsMode: 'standard',
  retryMode: 'standard',
  useDualstackEndpoint: false,
  useFipsEndpoint: false,
  authSchemePreference: [] as string[],
  userAgentAppId: 'campus-books',
  disableClockSkewCorrection: false,
} as const;

/** The attempts of one DynamoDB call (the SDK's standard retries): the first and one retry. */
export const DYNAMODB_MAX_ATTEMPTS = 2;
/** How long a DynamoDB connection may take to open. */
export const DYNAMODB_CONNECTION_TIMEOUT_MS = 500;

/**
 * The DynamoDB client's whole configuration, as plain values: the service's client
 * (lib/table/client.ts) and the benchmark's SDK floor (bench/harness/sdk-floor.ts) build theirs
 * from it, so the floor measures the same client with the same settings.
 */
export const dynamoClientSettings = (o: { region: string; endpoint?: string; requestTimeoutMs: number }) => ({
  ...clientOptions,
  region: o.region,
  // settled here, not looked up in the shared config files on the first call (see above)
  accountIdEndpointMode: 'preferred' as const,
  endpointDiscoveryEnabledProvider: async () => undefined,
  ...(o.endpoint ? { endpoint: o.endpoint, credentials: emulatorCredentials } : {}),
  maxAttempts: DYNAMODB_MAX_ATTEMPTS,
  /** options of the request handler (`NodeHttpHandler`) */
  http: {
    connectionTimeout: DYNAMODB_CONNECTION_TIMEOUT_MS,
    requestTimeout: o.requestTimeoutMs,
    throwOnRequestTimeout: true,
    socketTimeout: o.requestTimeoutMs,
  },
});

/**
 * Each DynamoDB attempt's request timeout on the deployed stages (the configuration's default,
 * lib/config.ts): chosen so that every attempt and back-off of a transaction's retries ends before
 * the function's time runs out (docs/data-layer.md, "Time budget").
 */
export const DEPLOYED_DYNAMODB_REQUEST_TIMEOUT_MS = 600;
