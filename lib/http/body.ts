import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { BadRequest, TooLarge } from '#lib/errors.ts';

/** How a request body may be written: JSON, or an HTML form (application/x-www-form-urlencoded). */
export type BodyFormat = 'json' | 'form';

export interface ParsedBody {
  value: Record<string, unknown> | undefined;
  /** null when there is no body */
  format: BodyFormat | null;
}

const FORM_TYPE = 'application/x-www-form-urlencoded';

/** The media type of the request (lower-cased, without parameters), or '' when none is sent. */
export function mediaTypeOf(event: APIGatewayProxyEventV2): string {
  const header = Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function bodyText(event: APIGatewayProxyEventV2, limitBytes: number): string | undefined {
  const raw = event.body;
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  if (Buffer.byteLength(text, 'utf8') > limitBytes) throw new TooLarge(limitBytes);
  return text;
}

/** An urlencoded form body as an object of strings; a field sent twice is refused (400). */
export function parseFormBody(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(out, key)) {
      throw new BadRequest(
        'The form sends a field twice.',
        [{ field: key, in: 'body', message: 'Sent more than once.' }],
        'MALFORMED_BODY',
      );
    }
    out[key] = value;
  }
  return out;
}

/**
 * Parses a request body. Over `limitBytes` -> 413 (checked before anything else touches the
 * request, so before any database call); malformed JSON or a non-object -> 400; no body ->
 * undefined. An urlencoded form body is read as a form only where `accepts` includes 'form'.
 */
export function parseBody(
  event: APIGatewayProxyEventV2,
  limitBytes: number,
  accepts: readonly BodyFormat[] = ['json'],
): ParsedBody {
  const text = bodyText(event, limitBytes);
  if (text === undefined) return { value: undefined, format: null };
  if (accepts.includes('form') && mediaTypeOf(event) === FORM_TYPE) {
    return { value: parseFormBody(text), format: 'form' };
  }
  return { value: parseJson(text), format: 'json' };
}

function parseJson(text: string): Record<string, unknown> {
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

/** Parses a JSON request body (see parseBody). */
export function parseJsonBody(
  event: APIGatewayProxyEventV2,
  limitBytes: number,
): Record<string, unknown> | undefined {
  return parseBody(event, limitBytes).value;
}
