/**
 * The API documentation: the OpenAPI document from the API, and the documentation page (Swagger
 * UI) as static files of the web app's origin (web/api-docs.ts), served by the local web server
 * with the page's own Content-Security-Policy and rendered by Chromium within it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#scripts/openapi/routes.ts';
import { api } from '#tests/helpers/e2e.ts';
import { expectDocumented } from '#tests/helpers/openapi.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';
import { apiDocsPolicy } from '#web/csp.ts';

const require = createRequire(import.meta.url);
const committed = readFileSync(path.join(PROJECT_ROOT, 'docs/openapi.json'), 'utf8');

describe('the OpenAPI document, served by the API', () => {
  it('serves the committed OpenAPI document at /api/openapi.json', async () => {
    const res = await api('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expectDocumented(res, 'GET', '/api/openapi.json');
    expect(res.body).toEqual(JSON.parse(committed));
  });
});

describe('the API documentation page, static files of the web app', () => {
  const stack = webStackForFile();

  it('serves the page at /api-docs/ with its own policy, and every file it loads from this origin', async () => {
    const base = `${stack().url}/api-docs/`;
    const res = await fetch(base);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(apiDocsPolicy());
    const html = await res.text();
    const files = [...html.matchAll(/<(?:script src|link rel="stylesheet" href)="([^"]+)"/g)].map(
      (m) => new URL(m[1] ?? '', base).pathname,
    );
    expect(files).toEqual([
      '/api-docs/swagger-ui.css',
      '/api-docs/swagger-ui-bundle.js',
      '/api-docs/start.js',
    ]);
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    const bytes = async (p: string) => {
      const r = await fetch(`${stack().url}${p}`);
      expect(r.status, p).toBe(200);
      return Buffer.from(await r.arrayBuffer());
    };
    expect(
      (await bytes('/api-docs/swagger-ui-bundle.js')).equals(
        readFileSync(require.resolve('swagger-ui-dist/swagger-ui-bundle.js')),
      ),
    ).toBe(true);
    expect(
      (await bytes('/api-docs/swagger-ui.css')).equals(
        readFileSync(require.resolve('swagger-ui-dist/swagger-ui.css')),
      ),
    ).toBe(true);
    expect((await bytes('/api-docs/openapi.json')).toString('utf8')).toBe(committed);
    expect((await bytes('/api-docs/start.js')).toString('utf8')).toContain("url: 'openapi.json'");
  });

  it('sends /api-docs to the page and keeps the app policy everywhere else', async () => {
    const res = await fetch(`${stack().url}/api-docs`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/api-docs/');
    const app = await fetch(`${stack().url}/`);
    expect(app.headers.get('content-security-policy')).not.toContain('unsafe-inline');
  });

  it('renders every operation of the document in Chromium without a policy violation', async () => {
    const page = await stack().newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') violations.push(m.text());
    });
    await page.goto('/api-docs/');
    await page.locator('.swagger-ui .info .title').waitFor();
    expect(await page.locator('.swagger-ui .info .title').textContent()).toContain('Campus Books');
    const operations = Object.values(JSON.parse(committed).paths as Record<string, object>).flatMap((p) =>
      Object.keys(p).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k)),
    );
    await expect.poll(() => page.locator('.opblock').count()).toBe(operations.length);
    expect(violations).toEqual([]);
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
