/**
 * Builds the OpenAPI 3.1 document from the routes of serverless.yml and the specs their handlers
 * carry (`handler.spec`): the zod schemas the handlers validate with are the single source.
 *
 * Marketplace routes (`http()`, lib/http/index.ts) are documented with the envelope around their
 * `response`, their auth mode, params, query, body, headers, and the error statuses that apply
 * (400 and 500 always; 401 unless auth is `none`; 413 where a body is taken; plus `errors`).
 * Routes outside the envelope carry a RawRouteSpec (lib/http/spec.ts) naming every response.
 * A route whose handler has no spec, or a marketplace spec without `response`, is an error:
 * a new route cannot ship undocumented.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BODY_LIMIT_BYTES, ROLE_LEVEL, type RouteSpec } from '#lib/http/index.ts';
import { ErrorEnvelope, envelope } from '#lib/http/schemas.ts';
import {
  type Credential,
  isRawSpec,
  type RawResponse,
  type RawRouteSpec,
  type SchemaSource,
} from '#lib/http/spec.ts';
import * as z from '#lib/zod.ts';
import { type HttpRoute, PROJECT_ROOT, readHttpRoutes } from './routes.ts';

export type JsonSchema = Record<string, unknown>;
type Json = Record<string, unknown>;

export interface DocumentedRoute {
  route: HttpRoute;
  /** `handler.spec` as found on the handler (not trusted: checked here). */
  spec: unknown;
}

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
}

const SECURITY_SCHEMES: Record<Credential, { name: string; scheme: Json }> = {
  bearer: {
    name: 'bearerAuth',
    scheme: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'The token from POST /api/auth/login (HS256). A present but invalid token is always 401.',
    },
  },
  basic: {
    name: 'basicAuth',
    scheme: { type: 'http', scheme: 'basic', description: 'Sample service credentials.' },
  },
  apiKey: {
    name: 'apiKeyAuth',
    scheme: { type: 'apiKey', in: 'header', name: 'X-API-KEY', description: 'Sample service API key.' },
  },
};

/** Error statuses of the envelope: description, the code shown in the example, response headers. */
const ERRORS: Record<number, { description: string; code: string; error: string; headers?: Json }> = {
  400: {
    description:
      'Invalid input: malformed JSON, an unknown field, or a value out of bounds (`details` names each).',
    code: 'VALIDATION_FAILED',
    error: 'The request is invalid.',
  },
  401: {
    description: 'Missing, invalid or expired bearer token.',
    code: 'TOKEN_INVALID',
    error: 'The token is missing, invalid or expired.',
    headers: { 'WWW-Authenticate': { description: '`Bearer` challenge', schema: { type: 'string' } } },
  },
  403: {
    description: 'Authenticated, but not allowed to do this.',
    code: 'FORBIDDEN',
    error: 'You are not allowed to do this.',
  },
  404: {
    description: 'No such thing (also where revealing that it exists would leak).',
    code: 'NOT_FOUND',
    error: 'No such thing.',
  },
  409: {
    description: 'The request conflicts with the current state.',
    code: 'CONFLICT',
    error: 'The request conflicts with the current state.',
  },
  413: {
    description: `The body is larger than ${BODY_LIMIT_BYTES} bytes.`,
    code: 'PAYLOAD_TOO_LARGE',
    error: `The request body is larger than ${BODY_LIMIT_BYTES} bytes.`,
  },
  415: {
    description: 'The body is not sent as application/json (or, where a route takes one, as an HTML form).',
    code: 'UNSUPPORTED_MEDIA_TYPE',
    error: 'Send the body as application/json (Content-Type).',
  },
  422: {
    description:
      'Well formed but not processable as sent (e.g. an Idempotency-Key reused for another request).',
    code: 'IDEMPOTENCY_KEY_REUSED',
    error: 'This Idempotency-Key was already used for a different request.',
  },
  429: {
    description: 'Too many attempts; try again after `Retry-After` seconds.',
    code: 'TOO_MANY_REQUESTS',
    error: 'Too many attempts. Try again later.',
    headers: {
      'Retry-After': { description: 'seconds to wait', schema: { type: 'string', pattern: '^\\d+$' } },
    },
  },
  500: {
    description: 'An unexpected fault; nothing internal is shown. Quote `requestId` when reporting it.',
    code: 'INTERNAL',
    error: 'Something went wrong on our side. Quote the request id if you contact us.',
  },
  503: {
    description: 'The service is busy; try again after `Retry-After` seconds.',
    code: 'SERVICE_UNAVAILABLE',
    error: 'The service is busy. Try again shortly.',
    headers: {
      'Retry-After': { description: 'seconds to wait', schema: { type: 'string', pattern: '^\\d+$' } },
    },
  },
};

const EXAMPLE_TIME = '2026-01-15T09:30:00.000Z';
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);
const TAG_DESCRIPTIONS: Record<string, string> = {
  auth: 'Accounts: sign-up, e-mail confirmation, login, passwords and profile.',
  books: 'Listing, searching and posting books.',
  cart: 'Checkout of the cart.',
  matching: "Wanted books (requests), the caller's matches and notifications.",
  user: "The caller's cart, purchases, sales and profile data.",
  dashboard: 'Administration (admins and owners).',
  docs: 'This document and its documentation page.',
  sample: 'The sample service (Basic auth, not enveloped).',
};

/** zod -> JSON Schema (draft 2020-12), with named schemas (`.check(z.meta({ id }))`) lifted to components. */
class Schemas {
  readonly components: Record<string, JsonSchema> = {};

  convert(source: SchemaSource, io: 'input' | 'output'): JsonSchema {
    if ('json' in source && !('_zod' in source)) return structuredClone(source.json);
    const schema = source as z.ZodMiniType;
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
    }) as JsonSchema;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    const names: Record<string, string> = {};
    for (const [id, def] of Object.entries(defs)) names[id] = this.register(id, def, io);
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (typeof value !== 'object' || value === null) return value;
      const out: Json = {};
      for (const [k, v] of Object.entries(value)) {
        const target = k === '$ref' && typeof v === 'string' ? /^#\/\$defs\/(.+)$/.exec(v)?.[1] : undefined;
        out[k] = target ? `#/components/schemas/${names[target] ?? target}` : rewrite(v);
      }
      return out;
    };
    for (const name of Object.values(names))
      this.components[name] = rewrite(this.components[name]) as JsonSchema;
    return rewrite(json) as JsonSchema;
  }

  /** A named schema; an input variant that differs from the output one gets its own name. */
  private register(id: string, def: JsonSchema, io: 'input' | 'output'): string {
    const candidates = io === 'input' ? [id, `${id}Input`] : [id, `${id}Output`];
    for (const name of candidates) {
      const existing = this.components[name];
      if (!existing) {
        this.components[name] = def;
        return name;
      }
      if (stableJson(existing) === stableJson(def)) return name;
    }
    throw new Error(`two different zod schemas share the id "${id}"`);
  }

  set(name: string, schema: JsonSchema): void {
    this.components[name] = schema;
  }
}

/** JSON with sorted keys, for comparing. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

const templateParams = (routePath: string) =>
  [...routePath.matchAll(/\{([^}+]+)\+?\}/g)].map((m) => m[1] ?? '');

const areaOf = (route: HttpRoute) => /^functions\/([^/]+)\//.exec(route.module)?.[1] ?? 'other';

/** Finds every problem with the routes' specs, so one run reports them all. */
export function specProblems(routes: DocumentedRoute[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const { route, spec } of routes) {
    const where = `${route.method.toUpperCase()} ${route.path} (${route.module} export ${route.exportName}, function ${route.functionName})`;
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) problems.push(`${where}: the same method and path are routed twice`);
    seen.add(key);
    if (typeof spec !== 'object' || spec === null) {
      problems.push(
        `${where}: the handler has no spec; build it with http({ ..., response }) from lib/http/index.ts`,
      );
      continue;
    }
    if (isRawSpec(spec)) {
      if (!spec.responses || Object.keys(spec.responses).length === 0)
        problems.push(`${where}: the raw spec documents no response`);
      continue;
    }
    const s = spec as RouteSpec;
    const rawSuccess = Object.keys(s.rawResponses ?? {}).some((status) => Number(status) < 400);
    if (!s.response && !rawSuccess)
      problems.push(`${where}: the spec has no \`response\` schema; pass response to http()`);
    if (!['none', 'optional', 'required'].includes(s.auth))
      problems.push(`${where}: unknown auth mode ${String(s.auth)}`);
    if (s.role !== undefined && s.errors?.includes(403))
      problems.push(`${where}: 403 is implied by \`role\`; leave it out of \`errors\``);
    for (const status of s.errors ?? []) {
      if (!ERRORS[status])
        problems.push(`${where}: error status ${status} is not one the error mapper answers`);
    }
  }
  return problems;
}

/** Builds the document; throws (listing every problem) when a route is not fully documented. */
export function buildDocument(routes: DocumentedRoute[], info: DocumentInfo): Json {
  const problems = specProblems(routes);
  if (problems.length > 0) {
    throw new Error(`The OpenAPI document cannot be built:\n  - ${problems.join('\n  - ')}`);
  }
  const schemas = new Schemas();
  schemas.set('ErrorEnvelope', schemas.convert(ErrorEnvelope, 'output'));
  const usedCredentials = new Set<Credential>();
  const usedTags = new Set<string>();
  const paths: Record<string, Record<string, Json>> = {};
  for (const { route, spec } of routes) {
    const tag = areaOf(route);
    usedTags.add(tag);
    const operation = isRawSpec(spec)
      ? rawOperation(route, spec, schemas)
      : envelopedOperation(route, spec as RouteSpec, schemas);
    const credentials: Credential[] = isRawSpec(spec)
      ? spec.credentials
      : (spec as RouteSpec).auth === 'none'
        ? []
        : ['bearer'];
    for (const c of credentials) usedCredentials.add(c);
    const requirement = Object.fromEntries(credentials.map((c) => [SECURITY_SCHEMES[c].name, []]));
    const security =
      credentials.length === 0
        ? []
        : (spec as RouteSpec).auth === 'optional'
          ? [requirement, {}]
          : [requirement];
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, Json>)[route.method] = {
      operationId: route.functionName,
      tags: [tag],
      ...operation,
      security,
    };
  }
  const securitySchemes = Object.fromEntries(
    (Object.keys(SECURITY_SCHEMES) as Credential[])
      .filter((c) => usedCredentials.has(c))
      .map((c) => [SECURITY_SCHEMES[c].name, SECURITY_SCHEMES[c].scheme]),
  );
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    tags: [...usedTags].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: Object.fromEntries(Object.entries(schemas.components).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes,
    },
  };
}

/**
 * An example value for a JSON Schema: its own `examples`/`default`/`const` when it has one (give
 * zod schemas `.check(z.meta({ examples: [...] }))` for realistic ones), else one built from its shape.
 */
export function exampleOf(schema: JsonSchema, components: Record<string, JsonSchema>, depth = 0): unknown {
  if (depth > 8) return null;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const ref =
    typeof schema.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  if (ref) return exampleOf(components[ref] ?? {}, components, depth + 1);
  const options = (schema.anyOf ?? schema.oneOf ?? schema.allOf) as JsonSchema[] | undefined;
  if (Array.isArray(options)) {
    const option = options.find((o) => o.type !== 'null') ?? options[0];
    return option ? exampleOf(option, components, depth + 1) : null;
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(
        Object.entries(properties).map(([k, v]) => [k, exampleOf(v, components, depth + 1)]),
      );
    }
    case 'array':
      return schema.items ? [exampleOf(schema.items as JsonSchema, components, depth + 1)] : [];
    case 'string':
      if (schema.format === 'date-time') return EXAMPLE_TIME;
      if (schema.format === 'email') return 'student@university.edu';
      return 'string';
    case 'integer':
    case 'number': {
      // 1, moved into [minimum, maximum] (zod's int() bounds are the safe-integer range).
      const min = typeof schema.minimum === 'number' ? schema.minimum : Number.NEGATIVE_INFINITY;
      const max = typeof schema.maximum === 'number' ? schema.maximum : Number.POSITIVE_INFINITY;
      return Math.min(Math.max(1, min), max);
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}

function pathParameters(route: HttpRoute, params: SchemaSource | undefined, schemas: Schemas): Json[] {
  const json = params ? schemas.convert(params, 'input') : {};
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const names = templateParams(route.path);
  for (const name of Object.keys(properties)) {
    if (!names.includes(name))
      throw new Error(`${route.path}: params schema has "${name}", the path does not`);
  }
  return names.map((name) => {
    const { description, ...schema } = properties[name] ?? { type: 'string' };
    return { name, in: 'path', required: true, ...(description ? { description } : {}), schema };
  });
}

function queryParameters(query: z.ZodMiniType | undefined, schemas: Schemas): Json[] {
  if (!query) return [];
  const json = schemas.convert(query, 'input');
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries((json.properties ?? {}) as Record<string, JsonSchema>).map(([name, prop]) => {
    const { description, ...schema } = prop;
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(description ? { description } : {}),
      schema,
    };
  });
}

/** A 401 of a route that takes no token: its own credentials were refused (e.g. login). */
const CREDENTIALS_REFUSED = {
  description: 'The credentials in the request were refused.',
  code: 'UNAUTHORIZED',
  error: 'Authentication is required.',
};

function errorResponse(status: number, route: HttpRoute, noToken = false): Json {
  const e = status === 401 && noToken ? CREDENTIALS_REFUSED : ERRORS[status];
  if (!e) throw new Error(`no description for error status ${status}`);
  const data: Json = { error: e.error, code: e.code };
  if (status === 400) data.details = [{ field: 'name', in: 'body', message: 'Unknown field.' }];
  if (status === 500) data.requestId = 'c0ffee00-0000-4000-8000-000000000000';
  return {
    description: e.description,
    ...('headers' in e && e.headers ? { headers: e.headers } : {}),
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorEnvelope' },
        example: { data, time: EXAMPLE_TIME, method: `${route.method.toUpperCase()} ${route.path}` },
      },
    },
  };
}

function envelopedOperation(route: HttpRoute, spec: RouteSpec, schemas: Schemas): Json {
  const response = spec.response ?? z.unknown();
  const wrapped = spec.paged
    ? z.extend(envelope(response), { next: z.nullable(z.string()) })
    : envelope(response);
  const responseSchema = schemas.convert(wrapped, 'output');
  const dataSchema = (responseSchema.properties as Record<string, JsonSchema> | undefined)?.data ?? {};
  const success: Json = {
    description: spec.summary ?? 'Success.',
    content: {
      'application/json': {
        schema: responseSchema,
        example: {
          data: exampleOf(dataSchema, schemas.components),
          time: EXAMPLE_TIME,
          method: `${route.method.toUpperCase()} ${route.path}`,
          ...(spec.paged ? { next: null } : {}),
        },
      },
    },
  };
  const errorStatuses = new Set<number>([400, 500, ...(spec.errors ?? [])]);
  if (spec.auth !== 'none') errorStatuses.add(401);
  if (spec.role !== undefined) errorStatuses.add(403);
  if (spec.body || BODY_METHODS.has(route.method)) {
    errorStatuses.add(413);
    errorStatuses.add(415);
  }
  const responses: Record<string, Json> = spec.response ? { [String(spec.status ?? 200)]: success } : {};
  if (spec.response) for (const status of spec.alsoStatus ?? []) responses[String(status)] = success;
  for (const status of [...errorStatuses].sort()) {
    responses[String(status)] = errorResponse(status, route, spec.auth === 'none');
  }
  for (const [status, raw] of Object.entries(spec.rawResponses ?? {})) {
    responses[status] = rawResponse(raw, schemas, responses[status]);
  }

  const parameters = [
    ...pathParameters(route, spec.params, schemas),
    ...queryParameters(spec.query, schemas),
    ...(spec.headers ?? []).map((name) => ({
      name,
      in: 'header',
      required: false,
      schema: { type: 'string' },
    })),
  ];
  const operation: Json = { summary: spec.summary ?? `${route.method.toUpperCase()} ${route.path}` };
  if (spec.role !== undefined) {
    operation.description = `${spec.role === 'owner' ? 'Owners only (permissionType 2)' : 'Admins only (permissionType >= 1)'}; the role is read from the user record on every call, otherwise 403.`;
    operation['x-required-permission-type'] = ROLE_LEVEL[spec.role];
  }
  if (parameters.length > 0) operation.parameters = parameters;
  if (spec.body) {
    const body = schemas.convert(spec.body, 'input');
    const examples = body.examples;
    operation.requestBody = {
      required: Array.isArray(body.required) && body.required.length > 0,
      content: {
        'application/json': {
          schema: body,
          ...(Array.isArray(examples) && examples.length > 0 ? { example: examples[0] } : {}),
        },
        ...(spec.forms ? { 'application/x-www-form-urlencoded': { schema: body } } : {}),
      },
    };
  }
  if (spec.formBody) {
    const form = { schema: { type: 'object', description: 'An HTML-form body; its fields are not read.' } };
    operation.requestBody = {
      required: false,
      content: {
        ...((operation.requestBody as { content?: Json } | undefined)?.content ?? {}),
        'application/x-www-form-urlencoded': form,
        'multipart/form-data': form,
      },
    };
  }
  operation.responses = responses;
  return operation;
}

/** A response outside the envelope; merged into `existing` (an enveloped answer of the same status) if any. */
function rawResponse(r: RawResponse, schemas: Schemas, existing?: Json): Json {
  const media: Json = {};
  if (r.schema) media.schema = schemas.convert(r.schema, 'output');
  if (r.example !== undefined) media.example = r.example;
  const types =
    r.contentType === undefined ? [] : Array.isArray(r.contentType) ? r.contentType : [r.contentType];
  const headers = {
    ...(existing?.headers as Json | undefined),
    ...Object.fromEntries(
      Object.entries(r.headers ?? {}).map(([name, description]) => [
        name,
        { description, schema: { type: 'string' } },
      ]),
    ),
  };
  const content = {
    ...(existing?.content as Json | undefined),
    ...Object.fromEntries(types.map((t) => [t, media])),
  };
  return {
    description: existing ? `${existing.description as string} Or: ${r.description}` : r.description,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(Object.keys(content).length > 0 ? { content } : {}),
  };
}

function rawOperation(route: HttpRoute, spec: RawRouteSpec, schemas: Schemas): Json {
  const responses: Record<string, Json> = {};
  for (const [status, r] of Object.entries(spec.responses)) responses[status] = rawResponse(r, schemas);
  for (const status of spec.errors ?? []) responses[String(status)] ??= errorResponse(status, route);
  const parameters = pathParameters(route, spec.params, schemas);
  return {
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** Imports each route's handler module and reads its `spec`. */
export async function loadRoutes(root = PROJECT_ROOT): Promise<DocumentedRoute[]> {
  const routes = readHttpRoutes(root);
  const loaded: DocumentedRoute[] = [];
  for (const route of routes) {
    const mod = (await import(pathToFileURL(path.join(root, route.module)).href)) as Record<string, unknown>;
    const handler = mod[route.exportName];
    if (typeof handler !== 'function') {
      throw new Error(
        `${route.module} does not export a handler named ${route.exportName} (${route.functionName})`,
      );
    }
    loaded.push({ route, spec: (handler as { spec?: unknown }).spec });
  }
  return loaded;
}

export const DOCUMENT_INFO_DESCRIPTION = [
  'Campus Books: a campus textbook marketplace, plus a small sample service.',
  '',
  'Marketplace answers are wrapped in the envelope `{ data, time, method }` (list endpoints add `next`);',
  'errors use the same envelope with `data: { error, code, details? }`. Bodies refuse unknown fields (400).',
  'Generated from the zod schemas the handlers validate with (`npm run openapi`).',
].join('\n');

/** The whole document for the project at `root`. */
export async function generateDocument(root = PROJECT_ROOT, version = '0.0.0'): Promise<Json> {
  return buildDocument(await loadRoutes(root), {
    title: 'Campus Books API',
    version,
    description: DOCUMENT_INFO_DESCRIPTION,
  });
}

/** The document as written to docs/openapi.json: two-space JSON and a final newline. */
export const serializeDocument = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;
