import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#scripts/openapi/routes.ts';
import { api, apiUrl } from '#tests/helpers/e2e.ts';
import { expectDocumented } from '#tests/helpers/openapi.ts';

const require = createRequire(import.meta.url);

describe('the API documentation, served by the service', () => {
  it('serves the committed OpenAPI document at /api/openapi.json', async () => {
    const res = await api('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expectDocumented(res, 'GET', '/api/openapi.json');
    expect(res.body).toEqual(JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'docs/openapi.json'), 'utf8')));
  });

  it('serves the docs page, and every script and stylesheet it loads from this service', async () => {
    const res = await api('GET', '/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const base = new URL('/api/docs', apiUrl());
    const files = [...res.text.matchAll(/<(?:script src|link rel="stylesheet" href)="([^"]+)"/g)].map(
      (m) => new URL(m[1] ?? '', base),
    );
    expect(files.map((u) => u.pathname)).toEqual([
      '/api/docs/assets/swagger-ui.css',
      '/api/docs/assets/swagger-ui-bundle.js',
      '/api/docs/assets/docs.js',
    ]);
    for (const url of files) {
      const asset = await api('GET', url.pathname);
      expect(asset.status, url.pathname).toBe(200);
      expect(asset.text.length, url.pathname).toBeGreaterThan(100);
    }
  });

  // The function carries the renderer Brotli-compressed (inlined at bundle time); each encoding
  // must give back the package's exact bytes.
  const bundle = readFileSync(require.resolve('swagger-ui-dist/swagger-ui-bundle.js'), 'utf8');
  for (const encoding of ['br', 'gzip', 'identity']) {
    it(`serves the renderer byte for byte to a client accepting ${encoding}`, async () => {
      const res = await api('GET', '/api/docs/assets/swagger-ui-bundle.js', {
        headers: { 'accept-encoding': encoding },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding') ?? 'identity').toBe(encoding);
      expect(res.text === bundle).toBe(true);
    });
  }

  it('answers a documented 404 for a file it does not serve', async () => {
    const res = await api('GET', '/api/docs/assets/package.json');
    expect(res.status).toBe(404);
    expectDocumented(res, 'GET', '/api/docs/assets/{file}');
  });
});

describe('api(), the end-to-end client', () => {
  it('fails the test for a path that matches no documented route, unless told the request leaves the contract', async () => {
    await expect(api('GET', '/api/books/notARoute')).rejects.toThrow(/no documented route/);
    await expect(api('DELETE', '/api/books/postBook')).rejects.toThrow(/no documented route/);
    const off = await api('GET', '/api/books/notARoute', { documented: false });
    expect(off.status).toBe(404);
  });
});
