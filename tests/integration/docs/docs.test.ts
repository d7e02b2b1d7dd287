import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { handler as assets } from '#functions/docs/assets.ts';
import { handler as openapi } from '#functions/docs/openapi.ts';
import { handler as page } from '#functions/docs/page.ts';
import { PROJECT_ROOT } from '#scripts/openapi/routes.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectDocumented } from '#tests/helpers/openapi.ts';

const require = createRequire(import.meta.url);
const ASSET_ROUTE = '/api/docs/assets/{file}';
const getAsset = (file: string, headers: Record<string, string> = {}) =>
  invoke(assets, { route: ASSET_ROUTE, pathParameters: { file }, headers });
const bytesOf = (res: { body: string }) => Buffer.from(res.body, 'base64');

describe('GET /api/openapi.json', () => {
  it('serves the committed docs/openapi.json', async () => {
    const res = await invoke(openapi, { route: '/api/openapi.json' });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual(
      JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'docs/openapi.json'), 'utf8')),
    );
    expectDocumented(res, 'GET', '/api/openapi.json');
  });
});

describe('GET /api/docs', () => {
  it('serves an HTML page that loads only the service’s own renderer files and the document', async () => {
    const res = await invoke(page, { route: '/api/docs' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expectDocumented(res, 'GET', '/api/docs');
    const sources = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources).toEqual([
      'docs/assets/swagger-ui.css',
      'openapi.json',
      'docs/assets/swagger-ui-bundle.js',
      'docs/assets/docs.js',
    ]);
    expect(res.body).not.toMatch(/<script>(?!<\/script>)/);
  });

  it('sets a Content-Security-Policy that allows this origin’s scripts only, and no framing', async () => {
    const csp = (await invoke(page, { route: '/api/docs' })).headers['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|https?:/);
  });
});

describe('GET /api/docs/assets/{file}', () => {
  const bundle = readFileSync(require.resolve('swagger-ui-dist/swagger-ui-bundle.js'));

  it('serves Swagger UI from the npm package, gzip-compressed when the client accepts gzip', async () => {
    const res = await getAsset('swagger-ui-bundle.js', { 'accept-encoding': 'gzip, deflate' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(gunzipSync(bytesOf(res)).equals(bundle)).toBe(true);
  });

  it('serves the file uncompressed to a client that accepts no compression', async () => {
    const res = await getAsset('swagger-ui-bundle.js', { 'accept-encoding': 'gzip;q=0' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(bytesOf(res).equals(bundle)).toBe(true);
  });

  it('serves the stylesheet and the start-up script', async () => {
    const css = await getAsset('swagger-ui.css');
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    const start = await getAsset('docs.js');
    expect(start.body).toContain("url: 'openapi.json'");
  });

  for (const file of ['nope.js', '__proto__', '..%2Fpackage.json', 'constructor']) {
    it(`answers a documented 404 for ${file}`, async () => {
      const res = await getAsset(file);
      expect(res.status).toBe(404);
      expectDocumented(res, 'GET', ASSET_ROUTE);
    });
  }
});
