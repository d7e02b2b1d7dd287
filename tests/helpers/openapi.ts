/**
 * Contract checks against the committed OpenAPI document (docs/openapi.json): a response is
 * valid when its status is documented for the operation and its body validates (Ajv, JSON
 * Schema 2020-12) against the schema documented for that status and content type.
 *
 * `api()` (tests/helpers/e2e.ts) runs this on every response it receives, so every response the
 * end-to-end suite sees is checked against the document; `expectDocumented()` does it explicitly
 * (also for in-process `invoke()` results).
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import document from '#docs/openapi.json' with { type: 'json' };

type Json = Record<string, unknown>;

// CommonJS default exports, seen from ESM.
const Ajv2020 = Ajv2020Module.default ?? (Ajv2020Module as unknown as typeof Ajv2020Module.default);
const addFormats =
  addFormatsModule.default ?? (addFormatsModule as unknown as typeof addFormatsModule.default);

const DOC_ID = 'openapi.json';
// multipleOfPrecision: money is `multipleOf: 0.01`, and 16.33 / 0.01 is not an integer in binary floating point.
const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true, multipleOfPrecision: 9 });
addFormats(ajv);
// Formats zod writes that ajv-formats lacks: zod writes a `pattern` next to each, which is checked.
for (const format of [
  'ulid',
  'emoji',
  'base64',
  'base64url',
  'cuid',
  'cuid2',
  'nanoid',
  'xid',
  'ksuid',
  'e164',
  'jwt',
  'cidrv4',
  'cidrv6',
  'mac',
]) {
  if (!ajv.formats[format]) ajv.addFormat(format, true);
}
ajv.addSchema(document as Json, DOC_ID);

const paths = document.paths as Record<string, Record<string, Json>>;

/** The route templates of the document, most specific (most literal segments) first. */
const templates = Object.keys(paths)
  .map((template) => {
    const segments = template.split('/');
    const pattern = segments
      .map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return {
      template,
      regex: new RegExp(`^${pattern}$`),
      literals: segments.filter((s) => !s.startsWith('{')).length,
    };
  })
  .sort((a, b) => b.literals - a.literals || a.template.localeCompare(b.template));

/** The documented route template a concrete request path falls under, as API Gateway would pick it. */
export function routeTemplateOf(method: string, concretePath: string): string | undefined {
  const pathOnly = concretePath.split('?')[0] ?? '';
  return templates.find((t) => t.regex.test(pathOnly) && paths[t.template]?.[method.toLowerCase()])?.template;
}

/** Every documented (method, path) pair, e.g. `GET /api/ping`. */
export const documentedOperations = (): string[] =>
  Object.entries(paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));

export interface ResponseLike {
  status: number;
  contentType: string | null;
  /** The raw body text. */
  text: string;
}

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The compiled validator of one documented response schema (throws if Ajv cannot compile it). */
export function validatorFor(pathTemplate: string, method: string, status: string, mediaType: string) {
  const ref = `${DOC_ID}#/${pointer('paths', pathTemplate, method.toLowerCase(), 'responses', status, 'content', mediaType, 'schema')}`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  return validate;
}

/** What is wrong with `res` as an answer of `method pathTemplate`; empty when it is as documented. */
export function contractProblems(res: ResponseLike, method: string, pathTemplate: string): string[] {
  const m = method.toLowerCase();
  const where = `${method.toUpperCase()} ${pathTemplate}`;
  const operation = paths[pathTemplate]?.[m];
  if (!operation) return [`${where} is not in docs/openapi.json (run npm run openapi?)`];
  const responses = (operation.responses ?? {}) as Record<string, Json>;
  const documented = responses[String(res.status)];
  if (!documented) {
    return [
      `${where} answered ${res.status}, which docs/openapi.json does not document ` +
        `(documented: ${Object.keys(responses).join(', ')}); add it to the route's spec (errors) and run npm run openapi. ` +
        `Body: ${res.text.slice(0, 300)}`,
    ];
  }
  const content = (documented.content ?? {}) as Record<string, Json>;
  const mediaTypes = Object.keys(content);
  if (mediaTypes.length === 0)
    return res.text === '' ? [] : [`${where} ${res.status}: documented without a body`];
  const actual = (res.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const mediaType = mediaTypes.find((t) => t === actual);
  if (!mediaType)
    return [`${where} ${res.status}: content type "${actual}" is not documented (${mediaTypes.join(', ')})`];
  if (!content[mediaType]?.schema) return [];
  let value: unknown = res.text;
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
    try {
      value = JSON.parse(res.text);
    } catch {
      return [`${where} ${res.status}: the body is not JSON: ${res.text.slice(0, 200)}`];
    }
  }
  const validate = validatorFor(pathTemplate, m, String(res.status), mediaType);
  if (validate(value)) return [];
  return [
    `${where} ${res.status}: the body does not match the documented schema: ` +
      `${ajv.errorsText(validate.errors, { separator: '; ', dataVar: 'body' })}\n${JSON.stringify(value).slice(0, 500)}`,
  ];
}

/** `api()` results (fetch Headers) and `invoke()` results (header records) alike. */
type AnyResponse =
  | { status: number; headers: Headers; text: string }
  | { status: number; headers: Record<string, string>; body: string };

function normalize(res: AnyResponse): ResponseLike {
  if (res.headers instanceof Headers && 'text' in res) {
    return { status: res.status, contentType: res.headers.get('content-type'), text: res.text };
  }
  const headers = res.headers as Record<string, string>;
  const contentType = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? null;
  return { status: res.status, contentType, text: 'body' in res ? res.body : '' };
}

/** Asserts that `res` is documented for `method pathTemplate` (status, content type and body schema). */
export function expectDocumented(res: AnyResponse, method: string, pathTemplate: string): void {
  const problems = contractProblems(normalize(res), method, pathTemplate);
  if (problems.length > 0) expect.fail(problems.join('\n'));
}
