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

/**
 * Each DynamoDB attempt's request timeout on the deployed stages (the configuration's default,
 * lib/config.ts): chosen so that every attempt and back-off of a transaction's retries ends before
 * the function's time runs out (docs/data-layer.md, "Time budget").
 */
export const DEPLOYED_DYNAMODB_REQUEST_TIMEOUT_MS = 600;
