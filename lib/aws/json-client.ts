/**
 * A minimal client for AWS's JSON protocols (DynamoDB's `x-amz-json-1.0`, Secrets Manager's 1.1):
 * one signed `POST /` per call (lib/aws/sigv4.ts) on a keep-alive pool. It replaces the SDK's
 * clients where a cold start pays for them (issue 19): building the SDK's middleware stack,
 * endpoint rules and credential chain was most of a cold first call.
 *
 * It keeps what callers relied on from the SDK:
 *  - errors named as the service names them, with the fields it sent (e.g. DynamoDB's
 *    `CancellationReasons`) and `$metadata`;
 *  - the SDK's standard retries: up to `maxAttempts` calls for throttling (base delay 500 ms), 5xx
 *    answers and dropped connections (base 100 ms), full jitter, capped at 20 s;
 *  - a corrected clock when the service says the request's time is skewed.
 * Credentials: fixed ones when given (the emulators'); else the environment's (what Lambda gives a
 * function); else, for an operator's script, the SDK's default provider chain, loaded only then
 * (lib/aws/operator-credentials.ts, left out of the functions' bundles).
 */
import type { ClientRequest, Agent as HttpAgent, IncomingMessage, RequestOptions } from 'node:http';
import { type Credentials, signPost } from './sigv4.ts';

export interface JsonClientOptions {
  /** the signing name and endpoint prefix: 'dynamodb', 'secretsmanager' */
  service: string;
  /** X-Amz-Target of an operation: `${targetPrefix}.${operation}` */
  targetPrefix: string;
  /** '1.0' (DynamoDB) or '1.1' (Secrets Manager) */
  jsonVersion: '1.0' | '1.1';
  region: string;
  /** e.g. http://127.0.0.1:8000 (an emulator); default: the region's public endpoint */
  endpoint?: string;
  credentials?: Credentials;
  /** calls in all, the first included (the SDK's default is 3) */
  maxAttempts?: number;
}

/** An error the service answered, shaped as the SDK shapes it. */
export interface AwsError extends Error {
  $fault: 'client' | 'server';
  $metadata: { httpStatusCode?: number; requestId?: string; attempts: number };
  [field: string]: unknown;
}

/** What AWS answers when a partition, a table or the account is over its rate. */
const THROTTLING = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
]);

/** A call refused for rate (retried; what is left after the retries is this). */
export const isThrottling = (err: unknown): boolean =>
  THROTTLING.has((err as { name?: string } | null)?.name ?? '');

/** Answers that a retry may get past. */
const TRANSIENT = new Set(['InternalServerError', 'ServiceUnavailable', 'RequestTimeout']);
const NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);
const SKEWED = new Set(['RequestTimeTooSkewed', 'RequestExpired', 'InvalidSignatureException']);
const MAX_DELAY_MS = 20_000;
const FIVE_MINUTES_MS = 5 * 60_000;

/** Base delay of a retry of `err`, or null when it is not retried. */
function retryBase(err: unknown): number | null {
  const e = err as Partial<AwsError> & { code?: string };
  if (isThrottling(err)) return 500;
  if (TRANSIENT.has(e.name ?? '') || (e.$metadata?.httpStatusCode ?? 0) >= 500) return 100;
  if (NETWORK.has(e.code ?? '')) return 100;
  return null;
}

function errorOf(status: number, body: string, requestId: string | undefined, attempts: number): AwsError {
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
  const err = new Error(String(message ?? Message ?? `AWS answered ${status}`)) as AwsError;
  Object.assign(err, fields, {
    name,
    $fault: status >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode: status, requestId, attempts },
  });
  return err;
}

/** The credentials an environment carries (what Lambda gives a function), if it carries them. */
export function credentialsFromEnv(env: Record<string, string | undefined>): Credentials | undefined {
  const { AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN } = env;
  if (!AWS_ACCESS_KEY_ID || !AWS_SECRET_ACCESS_KEY) return undefined;
  return {
    accessKeyId: AWS_ACCESS_KEY_ID,
    secretAccessKey: AWS_SECRET_ACCESS_KEY,
    ...(AWS_SESSION_TOKEN ? { sessionToken: AWS_SESSION_TOKEN } : {}),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class AwsJsonClient {
  private readonly url: URL;
  private agent: HttpAgent | undefined;
  private request: ((options: RequestOptions) => ClientRequest) | undefined;
  private credentials: Promise<Credentials & { expiration?: Date }> | undefined;
  private clockOffsetMs = 0;

  constructor(private readonly options: JsonClientOptions) {
    this.url = new URL(options.endpoint ?? `https://${options.service}.${options.region}.amazonaws.com`);
  }

  /** Sends one operation with its JSON `body`, retried as the SDK retries; answers the parsed reply. */
  async call(operation: string, body: string): Promise<Record<string, unknown>> {
    const maxAttempts = this.options.maxAttempts ?? 3;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.post(operation, body, attempt);
      } catch (err) {
        const base = this.correctedClock(err) ? 0 : retryBase(err);
        if (base === null || attempt >= maxAttempts) throw err;
        await sleep(Math.random() * Math.min(MAX_DELAY_MS, base * 2 ** attempt));
      }
    }
  }

  /** Closes the kept connections (the process may then exit at once). */
  destroy(): void {
    this.agent?.destroy();
    this.agent = undefined;
    this.request = undefined;
  }

  /**
   * When the service refused the request's time as skewed and its own clock differs by more than
   * 5 minutes, signs from then on by its clock (as the SDK does); true when it did.
   */
  private correctedClock(err: unknown): boolean {
    const serverTime = (err as { serverTime?: number }).serverTime;
    if (serverTime === undefined) return false;
    this.clockOffsetMs = serverTime - Date.now();
    return true;
  }

  private async post(operation: string, body: string, attempt: number): Promise<Record<string, unknown>> {
    const request = this.request ?? (await this.connect());
    const headers = signPost({
      credentials: await this.currentCredentials(),
      region: this.options.region,
      service: this.options.service,
      host: this.url.host,
      headers: {
        'content-type': `application/x-amz-json-${this.options.jsonVersion}`,
        'x-amz-target': `${this.options.targetPrefix}.${operation}`,
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
    const fixed = this.options.credentials ?? credentialsFromEnv(process.env);
    if (fixed) return fixed;
    // an operator's script on a profile or SSO: the SDK's chain (not in the functions' bundles)
    const { operatorCredentials } = await import('./operator-credentials.ts');
    return operatorCredentials();
  }
}
