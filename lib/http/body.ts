import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { BadRequest, PayloadTooLarge } from './errors.ts';

/**
 * Parses a JSON request body. Over `limitBytes` -> 413 (checked before anything else touches the
 * request, so before any database call); malformed JSON or a non-object -> 400; no body -> undefined.
 */
export function parseJsonBody(
  event: APIGatewayProxyEventV2,
  limitBytes: number,
): Record<string, unknown> | undefined {
  const raw = event.body;
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  if (Buffer.byteLength(text, 'utf8') > limitBytes) throw new PayloadTooLarge(limitBytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadRequest('The request body is not valid JSON.', undefined, 'MALFORMED_JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new BadRequest('The request body must be a JSON object.', undefined, 'MALFORMED_JSON');
  }
  return value as Record<string, unknown>;
}

const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

/** Whether the request carries an HTML-form body (urlencoded or multipart). */
export function isFormBody(event: APIGatewayProxyEventV2): boolean {
  return FORM_TYPES.test(event.headers?.['content-type'] ?? '');
}

/** Checks a form body's size (413 over `limitBytes`) without reading it; the route takes no fields. */
export function skipFormBody(event: APIGatewayProxyEventV2, limitBytes: number): undefined {
  const raw = event.body ?? '';
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64').length : Buffer.byteLength(raw, 'utf8');
  if (bytes > limitBytes) throw new PayloadTooLarge(limitBytes);
  return undefined;
}
