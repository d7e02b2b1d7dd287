import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RouteSpec } from '#lib/http/index.ts';
import type { RawRouteSpec } from '#lib/http/spec.ts';
import { buildDocument, type DocumentedRoute, generateDocument } from '#scripts/openapi/document.ts';
import { type HttpRoute, PROJECT_ROOT, readHttpRoutes } from '#scripts/openapi/routes.ts';

const FIXTURE = path.join(PROJECT_ROOT, 'tests/fixtures/openapi/undocumented');
const INFO = { title: 'Test', version: '1.0.0', description: 'test document' };

type Json = Record<string, unknown>;

function makeRoute(overrides: Partial<HttpRoute> = {}): HttpRoute {
  return {
    functionName: 'booksThing',
    method: 'get',
    path: '/api/books/thing',
    module: 'functions/books/thing.ts',
    exportName: 'handler',
    ...overrides,
  };
}

function makeSpec(overrides: Partial<RouteSpec> = {}): RouteSpec {
  return { auth: 'none', response: z.strictObject({ ok: z.boolean() }), summary: 'A thing', ...overrides };
}

function operationOf(routes: DocumentedRoute[], method: string, routePath: string): Json {
  const doc = buildDocument(routes, INFO) as { paths: Record<string, Record<string, Json>> };
  const op = doc.paths[routePath]?.[method];
  if (!op) throw new Error(`no operation ${method} ${routePath}`);
  return op;
}

const responsesOf = (op: Json) => op.responses as Record<string, Json>;
function jsonSchemaOf(response: Json | undefined): Json {
  const media = (response?.content as Record<string, Json> | undefined)?.['application/json'];
  if (!media) throw new Error('no application/json content');
  return media.schema as Json;
}

describe('buildDocument for enveloped (marketplace) routes', () => {
  it('wraps the response schema in the envelope and documents 400 and 500 on a public GET', () => {
    const op = operationOf([{ route: makeRoute(), spec: makeSpec() }], 'get', '/api/books/thing');
    expect(Object.keys(responsesOf(op))).toEqual(['200', '400', '500']);
    const schema = jsonSchemaOf(responsesOf(op)['200']);
    expect(schema.required).toEqual(['data', 'time', 'method']);
    expect((schema.properties as Json).data).toMatchObject({ properties: { ok: { type: 'boolean' } } });
    expect(jsonSchemaOf(responsesOf(op)['400'])).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
    expect(op.security).toEqual([]);
  });

  it('documents bearer auth, 401, 413, 415, the success status, the body and the extra errors of a POST', () => {
    const op = operationOf(
      [
        {
          route: makeRoute({ method: 'post' }),
          spec: makeSpec({
            auth: 'required',
            status: 201,
            errors: [404, 409],
            body: z.strictObject({ name: z.string().min(1), comments: z.string().optional() }),
          }),
        },
      ],
      'post',
      '/api/books/thing',
    );
    expect(Object.keys(responsesOf(op)).sort()).toEqual([
      '201',
      '400',
      '401',
      '404',
      '409',
      '413',
      '415',
      '500',
    ]);
    expect(op.security).toEqual([{ bearerAuth: [] }]);
    const body = op.requestBody as Json;
    expect(body.required).toBe(true);
    expect(jsonSchemaOf(body)).toMatchObject({ required: ['name'], additionalProperties: false });
    const conflict = responsesOf(op)['409']?.content as Record<string, Json> | undefined;
    const example = conflict?.['application/json']?.example;
    expect(example).toMatchObject({ data: { code: 'CONFLICT' }, method: 'POST /api/books/thing' });
  });

  it('makes the token optional with an empty security alternative', () => {
    const op = operationOf(
      [{ route: makeRoute(), spec: makeSpec({ auth: 'optional' }) }],
      'get',
      '/api/books/thing',
    );
    expect(op.security).toEqual([{ bearerAuth: [] }, {}]);
    expect(responsesOf(op)['401']).toBeDefined();
  });

  it('documents path parameters from the params schema and query parameters with their required flags', () => {
    const op = operationOf(
      [
        {
          route: makeRoute({ path: '/api/books/list/{limit}/{skip}' }),
          spec: makeSpec({
            params: z.strictObject({
              limit: z.coerce.number().int().min(1).max(100),
              skip: z.coerce.number().int(),
            }),
            query: z.strictObject({ cursor: z.string().optional(), status: z.string() }),
            headers: ['Idempotency-Key'],
          }),
        },
      ],
      'get',
      '/api/books/list/{limit}/{skip}',
    );
    expect(op.parameters).toEqual([
      { name: 'limit', in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: 100 } },
      expect.objectContaining({ name: 'skip', in: 'path', required: true }),
      { name: 'cursor', in: 'query', required: false, schema: { type: 'string' } },
      { name: 'status', in: 'query', required: true, schema: { type: 'string' } },
      { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string' } },
    ]);
  });

  it('requires `next` in the envelope of a paged route', () => {
    const op = operationOf(
      [{ route: makeRoute(), spec: makeSpec({ paged: true }) }],
      'get',
      '/api/books/thing',
    );
    const schema = jsonSchemaOf(responsesOf(op)['200']);
    expect(schema.required).toContain('next');
  });

  it('lifts schemas named with .meta({ id }) into components and points at them', () => {
    const Book = z.strictObject({ id: z.string() }).meta({ id: 'Book' });
    const doc = buildDocument(
      [
        { route: makeRoute(), spec: makeSpec({ response: z.array(Book) }) },
        {
          route: makeRoute({ functionName: 'other', path: '/api/books/other' }),
          spec: makeSpec({ response: Book }),
        },
      ],
      INFO,
    ) as { components: { schemas: Record<string, Json> }; paths: Record<string, Record<string, Json>> };
    expect(doc.components.schemas.Book).toMatchObject({ properties: { id: { type: 'string' } } });
    const text = JSON.stringify(doc.paths);
    expect(text).toContain('"#/components/schemas/Book"');
    expect(text).not.toContain('$defs');
  });

  it("gives the success response an example with the route's method, built from the schema's examples", () => {
    const Book = z
      .strictObject({ id: z.string(), price: z.number() })
      .meta({ id: 'ExampleBook', examples: [{ id: 'b1', price: 12.5 }] });
    const op = operationOf(
      [
        {
          route: makeRoute(),
          spec: makeSpec({
            response: z.strictObject({ books: z.array(Book), total: z.number().int().min(1) }),
            paged: true,
          }),
        },
      ],
      'get',
      '/api/books/thing',
    );
    const media = (responsesOf(op)['200']?.content as Record<string, Json> | undefined)?.['application/json'];
    expect(media?.example).toEqual({
      data: { books: [{ id: 'b1', price: 12.5 }], total: 1 },
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      method: 'GET /api/books/thing',
      next: null,
    });
  });
});

describe('buildDocument for http() routes that answer outside the envelope (RawReply)', () => {
  it('documents pages and redirects next to the enveloped errors, without a response schema', () => {
    const op = operationOf(
      [
        {
          route: makeRoute({ path: '/api/auth/confirm/{token}' }),
          spec: {
            auth: 'none',
            params: z.strictObject({ token: z.string() }),
            rawResponses: {
              200: { description: 'Confirmed.', contentType: 'text/html', schema: z.string() },
              302: { description: 'To the front end.', headers: { Location: 'APP_URL/email-confirmed' } },
              400: { description: 'Invalid link page.', contentType: 'text/html' },
            },
          } satisfies RouteSpec,
        },
      ],
      'get',
      '/api/auth/confirm/{token}',
    );
    const responses = responsesOf(op);
    expect(Object.keys(responses)).toEqual(['200', '302', '400', '500']);
    expect(Object.keys(responses['200']?.content as Json)).toEqual(['text/html']);
    expect(responses['302']).toEqual({
      description: 'To the front end.',
      headers: { Location: { description: 'APP_URL/email-confirmed', schema: { type: 'string' } } },
    });
    expect(Object.keys(responses['400']?.content as Json)).toEqual(['application/json', 'text/html']);
  });
});

describe('buildDocument for raw routes', () => {
  it('documents each declared response with its content type and the credentials needed together', () => {
    const spec: RawRouteSpec = {
      kind: 'raw',
      summary: 'Sample',
      credentials: ['basic', 'apiKey'],
      responses: { 200: { description: 'ok', contentType: 'text/plain', schema: z.string(), example: 'hi' } },
      errors: [404],
    };
    const op = operationOf([{ route: makeRoute({ path: '/api/ping' }), spec }], 'get', '/api/ping');
    expect(op.security).toEqual([{ basicAuth: [], apiKeyAuth: [] }]);
    expect(responsesOf(op)['200']?.content).toEqual({
      'text/plain': { schema: { type: 'string' }, example: 'hi' },
    });
    expect(jsonSchemaOf(responsesOf(op)['404'])).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
  });
});

describe('an undocumented route', () => {
  it('makes the build fail, naming every route without a spec or without a response schema', () => {
    const routes: DocumentedRoute[] = [
      { route: makeRoute({ path: '/api/a' }), spec: undefined },
      { route: makeRoute({ path: '/api/b' }), spec: { auth: 'none' } },
      { route: makeRoute({ path: '/api/c' }), spec: makeSpec() },
    ];
    expect(() => buildDocument(routes, INFO)).toThrow(
      /GET \/api\/a .*has no spec[\s\S]*GET \/api\/b .*no `response` schema/,
    );
  });

  it('makes the generator fail for a route in serverless.yml whose handler has no spec', async () => {
    await expect(generateDocument(FIXTURE)).rejects.toThrow(/GET \/api\/things\/noSpec .*no spec/);
    await expect(generateDocument(FIXTURE)).rejects.toThrow(
      /GET \/api\/things\/noResponse\/\{id\} .*`response`/,
    );
  });

  it('refuses an error status the error mapper never answers', () => {
    expect(() => buildDocument([{ route: makeRoute(), spec: makeSpec({ errors: [418] }) }], INFO)).toThrow(
      /418/,
    );
  });
});

describe('readHttpRoutes', () => {
  it('reads included function files, inline functions and both httpApi event forms', () => {
    expect(readHttpRoutes(FIXTURE)).toEqual([
      {
        functionName: 'thingsInline',
        method: 'post',
        path: '/api/things/inline',
        module: 'functions/things/documented.ts',
        exportName: 'handler',
      },
      expect.objectContaining({ functionName: 'thingsNoResponse', path: '/api/things/noResponse/{id}' }),
      expect.objectContaining({
        functionName: 'thingsNoSpec',
        method: 'get',
        module: 'functions/things/no-spec.ts',
      }),
    ]);
  });
});
