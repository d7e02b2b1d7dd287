/**
 * The sample service's HTTP layer: Basic credentials (and an API key for /api/test), compared in
 * constant time; answers are not wrapped in the marketplace envelope.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { config, secret } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';
import * as z from '#lib/zod.ts';
import type { RawRouteSpec } from './spec.ts';
import { baseStack } from './stack.ts';

const REALM = 'Basic realm="campus-books-sample", charset="UTF-8"';

/** Constant-time string equality, whatever the lengths (both sides hashed to 32 bytes first). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb);
}

/** Parses `Authorization: Basic base64(user:pass)`; null when absent or malformed. */
export function parseBasic(header: string | undefined): { user: string; password: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m?.[1]) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

class SampleUnauthorized extends Error {}

const unauthorized = (message: string): APIGatewayProxyResultV2 => ({
  statusCode: 401,
  headers: {
    'WWW-Authenticate': REALM,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
  },
  body: JSON.stringify({ error: message, code: 'UNAUTHORIZED' }),
});

const sampleErrors: middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> = {
  onError: (request) => {
    if (request.error instanceof SampleUnauthorized) {
      request.response = unauthorized(request.error.message);
      return;
    }
    logger.error('unhandled error', request.error as Error);
    request.response = {
      statusCode: 500,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify({
        error: 'Internal error',
        code: 'INTERNAL',
        requestId: request.context?.awsRequestId,
      }),
    };
  },
};

/** Checks Basic credentials and, when `apiKey`, the X-API-KEY header; both are always compared. */
export function checkSampleCredentials(headers: Record<string, string | undefined>, apiKey: boolean): void {
  const basic = parseBasic(headers.authorization);
  const userOk = safeEqual(basic?.user ?? '', config.SAMPLE_BASIC_USER);
  const passOk = safeEqual(basic?.password ?? '', secret('SAMPLE_BASIC_PASSWORD'));
  if (!basic || !userOk || !passOk) throw new SampleUnauthorized('Valid Basic credentials are required.');
  if (apiKey && !safeEqual(headers['x-api-key'] ?? '', secret('SAMPLE_API_KEY'))) {
    throw new SampleUnauthorized('A valid X-API-KEY header is required.');
  }
}

/** The small JSON error bodies of the sample service (not the marketplace envelope). */
export const SampleUnauthorizedBody = z.strictObject({ error: z.string(), code: z.literal('UNAUTHORIZED') });
export const SampleInternalBody = z.strictObject({
  error: z.string(),
  code: z.literal('INTERNAL'),
  requestId: z.optional(z.string()),
});

/** The successful answer of a sample route, for the OpenAPI document. */
export interface SampleSuccess {
  summary: string;
  description?: string;
  contentType: 'text/plain' | 'application/json';
  schema: z.ZodMiniType;
  example: unknown;
}

function sampleSpec(apiKey: boolean, success: SampleSuccess): RawRouteSpec {
  return {
    kind: 'raw',
    summary: success.summary,
    description: success.description,
    credentials: apiKey ? ['basic', 'apiKey'] : ['basic'],
    responses: {
      200: {
        description: 'Success.',
        contentType: success.contentType,
        schema: success.schema,
        example: success.example,
      },
      401: {
        description: apiKey
          ? 'Basic credentials or the X-API-KEY header missing or wrong.'
          : 'Basic credentials missing or wrong.',
        contentType: 'application/json',
        schema: SampleUnauthorizedBody,
        headers: { 'WWW-Authenticate': 'Basic realm="campus-books-sample", charset="UTF-8"' },
        example: { error: 'Valid Basic credentials are required.', code: 'UNAUTHORIZED' },
      },
      500: {
        description: 'An unexpected fault; the request id is logged.',
        contentType: 'application/json',
        schema: SampleInternalBody,
        example: {
          error: 'Internal error',
          code: 'INTERNAL',
          requestId: 'c0ffee00-0000-4000-8000-000000000000',
        },
      },
    },
  };
}

export function sampleHttp(
  options: { apiKey: boolean; spec: SampleSuccess },
  handler: (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyResultV2>,
) {
  const wrapped = baseStack(async (event) => {
    checkSampleCredentials(event.headers ?? {}, options.apiKey);
    return handler(event);
  }, sampleErrors);
  return Object.assign(wrapped, { spec: sampleSpec(options.apiKey, options.spec) });
}
