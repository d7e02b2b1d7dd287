import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { BadRequest, type ErrorDetail, TooLarge, UnsupportedMediaType } from '#lib/errors.ts';

/** How a request body may be written: JSON, or an HTML form (application/x-www-form-urlencoded). */
export type BodyFormat = 'json' | 'form';

export interface ParsedBody {
  value: Record<string, unknown> | undefined;
  /** null when there is no body */
  format: BodyFormat | null;
}

const FORM_TYPE = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

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
 * request, so before any database call); a Content-Type other than application/json (or, where
 * `accepts` includes 'form', application/x-www-form-urlencoded) -> 415; malformed JSON, a
 * non-object, a key sent twice, a lone surrogate or a control character -> 400; no body -> undefined.
 */
export function parseBody(
  event: APIGatewayProxyEventV2,
  limitBytes: number,
  accepts: readonly BodyFormat[] = ['json'],
): ParsedBody {
  const text = bodyText(event, limitBytes);
  if (text === undefined) return { value: undefined, format: null };
  const type = mediaTypeOf(event);
  let parsed: ParsedBody;
  if (accepts.includes('form') && type === FORM_TYPE) parsed = { value: parseFormBody(text), format: 'form' };
  else if (type === JSON_TYPE) parsed = { value: parseJson(text), format: 'json' };
  else throw new UnsupportedMediaType(accepts.map((f) => (f === 'form' ? FORM_TYPE : JSON_TYPE)));
  assertCleanText(parsed.value ?? {}, 'body');
  return parsed;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Fields whose text is a secret, kept exactly as typed (only well-formedness is checked). */
const SECRET_FIELD = /password/i;
/** Control characters other than newlines; newlines are refused by each single-line field's schema. */
const CONTROL_EXCEPT_NEWLINES = /[^\P{Cc}\n\r]/u;

/**
 * Every string of a request part (body, query, path), keys included, must be well-formed UTF-16
 * (no lone surrogates) and free of control characters other than newlines (400 naming the fields).
 */
export function assertCleanText(value: unknown, where: 'body' | 'query' | 'path'): void {
  const details: ErrorDetail[] = [];
  const visit = (v: unknown, path: string, secret: boolean) => {
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v))
        details.push({ field: path || '(root)', in: where, message: 'Text with a lone UTF-16 surrogate.' });
      else if (!secret && CONTROL_EXCEPT_NEWLINES.test(v))
        details.push({ field: path || '(root)', in: where, message: 'Control characters are not allowed.' });
    } else if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) visit(item, `${path}.${i}`, secret);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        const field = path ? `${path}.${k}` : k;
        visit(k, field, false);
        visit(item, field, secret || SECRET_FIELD.test(k));
      }
    }
  };
  visit(value, '', false);
  if (details.length > 0)
    throw new BadRequest('The request has text that is not allowed.', details, 'VALIDATION_FAILED');
}

/**
 * Throws 400 when an object in (valid) JSON text has the same key twice: JSON.parse would keep
 * the last silently, and two parsers could read two different requests.
 */
export function assertNoDuplicateKeys(text: string): void {
  const stack: Array<{ keys: Set<string> | null; expectKey: boolean }> = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = stack.at(-1);
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) {
          throw new BadRequest(
            'The request body has a key twice.',
            [{ field: key, in: 'body', message: 'Sent more than once.' }],
            'MALFORMED_JSON',
          );
        }
        top.keys.add(key);
        top.expectKey = false;
      }
      i = j;
    } else if (c === '{') stack.push({ keys: new Set(), expectKey: true });
    else if (c === '[') stack.push({ keys: null, expectKey: false });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') {
      const top = stack.at(-1);
      if (top?.keys) top.expectKey = true;
    }
  }
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
  assertNoDuplicateKeys(text);
  return value as Record<string, unknown>;
}

/** Parses a JSON request body (see parseBody). */
export function parseJsonBody(
  event: APIGatewayProxyEventV2,
  limitBytes: number,
): Record<string, unknown> | undefined {
  return parseBody(event, limitBytes).value;
}
