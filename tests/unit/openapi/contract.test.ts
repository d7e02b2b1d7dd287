import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateDocument, serializeDocument } from '#scripts/openapi/document.ts';
import { PROJECT_ROOT, readHttpRoutes } from '#scripts/openapi/routes.ts';
import {
  contractProblems,
  documentedOperations,
  routeTemplateOf,
  validatorFor,
} from '#tests/helpers/openapi.ts';

const committedText = readFileSync(path.join(PROJECT_ROOT, 'docs/openapi.json'), 'utf8');
const committed = JSON.parse(committedText) as {
  info: { version: string };
  paths: Record<string, Record<string, { operationId: string; security?: unknown; responses: object }>>;
};

describe('the committed OpenAPI document', () => {
  it('has exactly the (method, path) pairs routed in serverless.yml', () => {
    const routed = readHttpRoutes().map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(new Set(documentedOperations())).toEqual(new Set(routed));
    expect(documentedOperations()).toHaveLength(routed.length);
  });

  it('is what `npm run openapi` generates from the handlers now (else run it and commit)', async () => {
    const fresh = serializeDocument(await generateDocument(PROJECT_ROOT, committed.info.version));
    expect(fresh).toBe(committedText);
  }, 60_000);

  it('gives every operation a unique operationId, a security requirement and a success response', () => {
    const ids = new Set<string>();
    for (const [p, ops] of Object.entries(committed.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(ids.has(op.operationId), `${method} ${p} operationId`).toBe(false);
        ids.add(op.operationId);
        expect(Array.isArray(op.security), `${method} ${p} security`).toBe(true);
        expect(
          Object.keys(op.responses).some((s) => /^2\d\d$/.test(s)),
          `${method} ${p} success`,
        ).toBe(true);
      }
    }
  });

  it('has only references that resolve inside the document', () => {
    const doc = JSON.parse(committedText) as Record<string, unknown>;
    const refs = [...committedText.matchAll(/"\$ref": "#\/([^"]+)"/g)].map((m) => m[1] ?? '');
    for (const ref of new Set(refs)) {
      let node: unknown = doc;
      for (const part of ref.split('/'))
        node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/')];
      expect(node, ref).toBeDefined();
    }
  });
});

describe('the contract check used by the end-to-end helper', () => {
  const ok = { Name: 'sample', Email: 'sample@campusbooks.local' };

  it('accepts an answer that matches the documented schema for its status', () => {
    expect(
      contractProblems(
        { status: 200, contentType: 'application/json', text: JSON.stringify(ok) },
        'GET',
        '/api/test',
      ),
    ).toEqual([]);
  });

  it('reports a body that does not match, an undocumented status and an undocumented content type', () => {
    const extra = JSON.stringify({ ...ok, passwordHash: 'x' });
    expect(
      contractProblems({ status: 200, contentType: 'application/json', text: extra }, 'GET', '/api/test')[0],
    ).toMatch(/does not match the documented schema/);
    expect(
      contractProblems({ status: 418, contentType: 'application/json', text: '{}' }, 'GET', '/api/test')[0],
    ).toMatch(/answered 418, which docs\/openapi.json does not document/);
    expect(
      contractProblems({ status: 200, contentType: 'text/html', text: 'x' }, 'GET', '/api/test')[0],
    ).toMatch(/content type "text\/html" is not documented/);
    expect(
      contractProblems({ status: 200, contentType: 'text/plain', text: 'yesterday' }, 'GET', '/api/ping')[0],
    ).toMatch(/does not match/);
  });

  it('finds the most specific documented route template for a concrete path', () => {
    expect(routeTemplateOf('GET', '/api/user/getOrder/O1')).toBe('/api/user/getOrder/{orderId}');
    expect(routeTemplateOf('GET', '/api/ping?x=1')).toBe('/api/ping');
    expect(routeTemplateOf('POST', '/api/ping')).toBeUndefined();
    expect(routeTemplateOf('GET', '/api/nowhere')).toBeUndefined();
  });
});

/** Every documented response body: its path, method, status, media type and media object. */
function* documentedMedia() {
  for (const [p, ops] of Object.entries(committed.paths))
    for (const [method, op] of Object.entries(ops))
      for (const [status, response] of Object.entries(
        op.responses as Record<string, { content?: Record<string, { schema?: object; example?: unknown }> }>,
      ))
        for (const [mediaType, media] of Object.entries(response.content ?? {}))
          yield { p, method, status, mediaType, media };
}

describe('the response schemas of the committed document', () => {
  it('all compile with Ajv (JSON Schema 2020-12), so the end-to-end checks can use them', () => {
    for (const { p, method, status, mediaType, media } of documentedMedia())
      if (media.schema)
        expect(() => validatorFor(p, method, status, mediaType), `${method} ${p} ${status}`).not.toThrow();
    // compiling every schema is CPU work: on a loaded 2-core machine it can take several seconds
  }, 60_000);
});

describe('the examples of the committed document', () => {
  it('validate against the documented schema for every error response', () => {
    for (const { p, method, status, mediaType, media } of documentedMedia()) {
      if (Number(status) < 400 || media.example === undefined) continue;
      const res = { status: Number(status), contentType: mediaType, text: JSON.stringify(media.example) };
      expect(contractProblems(res, method, p)).toEqual([]);
    }
  });
});
