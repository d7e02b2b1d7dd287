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
 * The response bodies are gathered by `collectBody` below instead of the SDK's stream collector,
 * which first asks whether the body is a web `ReadableStream`: naming that global makes Node load
 * its whole web-streams implementation on a cold first call. The HTTP handler's responses are Node
 * streams (`IncomingMessage`), so that is the one case handled.
 */
import type { Readable } from 'node:stream';
import { config } from '#lib/config.ts';

/** Gathers a Node response stream into bytes (the SDK's `streamCollector` contract). */
export async function collectBody(stream: unknown): Promise<Uint8Array> {
  if (stream instanceof Uint8Array) return stream;
  const chunks: Buffer[] = [];
  for await (const chunk of stream as Readable) chunks.push(Buffer.from(chunk as Uint8Array));
  return new Uint8Array(Buffer.concat(chunks));
}

/** Local emulators take any credentials; deployed functions use their role's (from the environment). */
export const emulatorCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

export const clientOptions = {
  region: config.AWS_REGION,
  defaultsMode: 'standard',
  retryMode: 'standard',
  useDualstackEndpoint: false,
  useFipsEndpoint: false,
  authSchemePreference: [] as string[],
  userAgentAppId: 'campus-books',
  disableClockSkewCorrection: false,
  streamCollector: collectBody,
} as const;
