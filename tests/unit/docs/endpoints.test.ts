import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endpointsMarkdown, type OpenApiDocument, whoMayCall } from '#scripts/docs/endpoints-table.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const doc = JSON.parse(read('docs/openapi.json')) as OpenApiDocument;

describe('docs/endpoints.md, the endpoint table generated from docs/openapi.json', () => {
  it('is what `npm run openapi` writes from the committed document', () => {
    expect(read('docs/endpoints.md')).toBe(endpointsMarkdown(doc));
  });

  it('has one row per documented operation', () => {
    const operations = Object.values(doc.paths).flatMap((ops) => Object.keys(ops)).length;
    const rows = read('docs/endpoints.md')
      .split('\n')
      .filter((l) => /^\| (GET|POST|PUT|PATCH|DELETE) \|/.test(l));
    expect(rows).toHaveLength(operations);
    expect(operations).toBeGreaterThan(40);
  });

  it('names who may call each operation from its security and role', () => {
    expect(whoMayCall({ security: [] })).toBe('anyone');
    expect(whoMayCall({ security: [{ bearerAuth: [] }] })).toBe('bearer');
    expect(whoMayCall({ security: [{ bearerAuth: [] }, {}] })).toBe('bearer or anyone');
    expect(whoMayCall({ security: [{ bearerAuth: [] }], 'x-required-permission-type': 1 })).toBe('admin');
    expect(whoMayCall({ security: [{ bearerAuth: [] }], 'x-required-permission-type': 2 })).toBe('owner');
    expect(whoMayCall({ security: [{ basicAuth: [] }] })).toBe('Basic');
    expect(whoMayCall({ security: [{ basicAuth: [], apiKeyAuth: [] }] })).toBe('Basic + `X-API-KEY`');
  });
});
