/**
 * The one place errors become responses (the domain errors of lib/errors.ts mapped to statuses and
 * headers), and the envelope `{ data, time, method }`.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import {
  BadRequest,
  Busy,
  Conflict,
  type DomainError,
  Forbidden,
  NotFound,
  TooLarge,
  TooManyRequests,
  Unauthorized,
  Unprocessable,
  UnsupportedMediaType,
} from '#lib/errors.ts';
import { logger } from '#lib/logger.ts';

/** "GET /api/books/getBooksNoToken/{limit}/{skip}": the route template, as API Gateway names it. */
export function routeOf(event: APIGatewayProxyEventV2): string {
  if (event.routeKey && event.routeKey !== '$default') return event.routeKey;
  const method = event.requestContext?.http?.method ?? 'GET';
  return `${method} ${event.rawPath ?? ''}`;
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' };

export function envelopeResponse(
  event: APIGatewayProxyEventV2,
  status: number,
  data: unknown,
  extra: { next?: string | null; headers?: Record<string, string>; cookies?: string[] } = {},
): APIGatewayProxyResultV2 {
  const envelope: Record<string, unknown> = { data, time: new Date().toISOString(), method: routeOf(event) };
  if ('next' in extra) envelope.next = extra.next ?? null;
  return {
    statusCode: status,
    headers: { ...JSON_HEADERS, ...extra.headers },
    ...(extra.cookies ? { cookies: extra.cookies } : {}),
    body: JSON.stringify(envelope),
  };
}

/**
 * Middy's answer when the function is about to reach its Lambda timeout (a store slowed by
 * contention or throttling): the request did not finish, so the client is told to try again (503
 * with Retry-After), as when retries run out; never a 500.
 */
const ranOutOfTime = (error: unknown): boolean => {
  const e = error as { name?: string; cause?: { package?: string } } | null;
  return e?.name === 'TimeoutError' && e.cause?.package === '@middy/core';
};

/** The status and headers of a domain error, or null for an error that is not one (a 500). */
export function statusOf(error: unknown): { status: number; headers: Record<string, string> } | null {
  if (error instanceof BadRequest) return { status: 400, headers: {} };
  if (error instanceof Unauthorized)
    return { status: 401, headers: error.challenge ? { 'WWW-Authenticate': error.challenge } : {} };
  if (error instanceof Forbidden) return { status: 403, headers: {} };
  if (error instanceof NotFound) return { status: 404, headers: {} };
  if (error instanceof Conflict) return { status: 409, headers: {} };
  if (error instanceof TooLarge) return { status: 413, headers: {} };
  if (error instanceof UnsupportedMediaType) return { status: 415, headers: {} };
  if (error instanceof Unprocessable) return { status: 422, headers: {} };
  if (error instanceof TooManyRequests)
    return { status: 429, headers: { 'Retry-After': String(error.retryAfterSeconds) } };
  if (error instanceof Busy)
    return { status: 503, headers: { 'Retry-After': String(error.retryAfterSeconds) } };
  return null;
}

/** Maps a thrown error to a response; unknown errors -> 500 with a request id, logged, never shown. */
export function errorResponse(
  event: APIGatewayProxyEventV2,
  error: unknown,
  requestId: string | undefined,
): APIGatewayProxyResultV2 {
  if (ranOutOfTime(error)) return errorResponse(event, new Busy(), requestId);
  const mapped = statusOf(error);
  if (mapped) {
    const refusal = error as DomainError;
    if (mapped.status >= 500) logger.warn('request refused', { status: mapped.status, code: refusal.code });
    const data: Record<string, unknown> = { error: refusal.message, code: refusal.code };
    if (refusal.details) data.details = refusal.details;
    return envelopeResponse(event, mapped.status, data, { headers: mapped.headers });
  }
  logger.error('unhandled error', error as Error);
  return envelopeResponse(event, 500, {
    error: 'Something went wrong on our side. Quote the request id if you contact us.',
    code: 'INTERNAL',
    requestId: requestId ?? 'unknown',
  });
}

export const errorMapper: middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> = {
  onError: (request) => {
    request.response = errorResponse(request.event, request.error, request.context?.awsRequestId);
  },
};
