/**
 * The one place errors become responses, and the envelope `{ data, time, method }`.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { logger } from '#lib/logger.ts';
import { HttpError } from './errors.ts';

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
  extra: { next?: string | null; headers?: Record<string, string> } = {},
): APIGatewayProxyResultV2 {
  const envelope: Record<string, unknown> = { data, time: new Date().toISOString(), method: routeOf(event) };
  if ('next' in extra) envelope.next = extra.next ?? null;
  return {
    statusCode: status,
    headers: { ...JSON_HEADERS, ...extra.headers },
    body: JSON.stringify(envelope),
  };
}

/** Maps a thrown error to a response; unknown errors -> 500 with a request id, logged, never shown. */
export function errorResponse(
  event: APIGatewayProxyEventV2,
  error: unknown,
  requestId: string | undefined,
): APIGatewayProxyResultV2 {
  if (error instanceof HttpError) {
    if (error.status >= 500) logger.warn('request refused', { status: error.status, code: error.code });
    const data: Record<string, unknown> = { error: error.message, code: error.code };
    if (error.details) data.details = error.details;
    return envelopeResponse(event, error.status, data, { headers: error.headers });
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
