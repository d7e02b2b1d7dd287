/**
 * CloudFront sends the web app what the local server sends (web/src/csp.ts, the one source): the
 * packaged response headers policies, read back as headers, equal the local server's answer.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWeb, startWeb } from '#scripts/local/web.ts';
import { template } from '#tests/helpers/template.ts';

const res = () => template().Resources;
// What CloudFormation fills in at deploy time, with example values.
const BUCKET = 'campus-books-dev-photos-123456789012';
const UPLOAD_ORIGIN = `https://${BUCKET}.s3.us-east-1.amazonaws.com`;
const deployTime = (value: unknown): string => {
  // `Fn::Sub` as written, or in its [text, variables] form (the nested stacks' plugin writes that).
  const sub = (value as { 'Fn::Sub'?: unknown })['Fn::Sub'];
  const text = Array.isArray(sub) ? sub[0] : typeof sub === 'string' ? sub : value;
  expect(typeof text).toBe('string');
  return text.replace(/\$\{PhotosBucket\}/g, BUCKET).replace(/\$\{AWS::Region\}/g, 'us-east-1');
};

/** A response headers policy as the headers a viewer gets (lowercase names). */
function headersOf(policyRef: unknown): Record<string, string> {
  const id = (policyRef as { Ref?: string }).Ref ?? '';
  const policy = res()[id];
  expect(policy?.Type, id).toBe('AWS::CloudFront::ResponseHeadersPolicy');
  const config = policy?.Properties.ResponseHeadersPolicyConfig;
  const security = config.SecurityHeadersConfig ?? {};
  const out: Record<string, string> = {};
  const typed = Object.keys(security);
  expect(
    typed.every((k) => ['ContentSecurityPolicy', 'ContentTypeOptions', 'ReferrerPolicy'].includes(k)),
    typed.join(),
  ).toBe(true);
  for (const k of typed) expect(security[k].Override, k).toBe(true);
  if (security.ContentSecurityPolicy)
    out['content-security-policy'] = deployTime(security.ContentSecurityPolicy.ContentSecurityPolicy);
  if (security.ContentTypeOptions) out['x-content-type-options'] = 'nosniff';
  if (security.ReferrerPolicy) out['referrer-policy'] = security.ReferrerPolicy.ReferrerPolicy;
  for (const item of config.CustomHeadersConfig?.Items ?? []) {
    expect(item.Override, item.Header).toBe(true);
    out[item.Header.toLowerCase()] = item.Value;
  }
  return out;
}

/**
 * What the local server sends, without the headers of the transport and the file's type (the
 * encoding and its Vary are the transport's: CloudFront adds them itself with `Compress: true`).
 */
async function localHeaders(url: string): Promise<Record<string, string>> {
  const answer = await fetch(url);
  expect(answer.status).toBe(200);
  await answer.arrayBuffer();
  const skip = new Set([
    'content-type',
    'date',
    'connection',
    'keep-alive',
    'transfer-encoding',
    'content-length',
    'content-encoding',
    'vary',
  ]);
  return Object.fromEntries([...answer.headers].filter(([k]) => !skip.has(k)));
}

describe('the web app on CloudFront (packaged template)', () => {
  let dir: string;
  let web: RunningWeb;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'campus-books-web-headers-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'export {};');
    mkdirSync(path.join(dir, 'api-docs'));
    writeFileSync(path.join(dir, 'api-docs', 'index.html'), '<!doctype html><title>docs</title>');
    // The deployed build's photo store: the bucket's upload origin (VITE_PHOTOS_URL).
    web = await startWeb({ port: 0, apiUrl: 'http://127.0.0.1:9', dir, photosUrl: UPLOAD_ORIGIN });
  });
  afterAll(async () => {
    await web?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const distribution = () => res().Distribution?.Properties.DistributionConfig;

  it('sends index.html, the app routes and unhashed files the local server headers, no-cache', async () => {
    const app = headersOf(distribution().DefaultCacheBehavior.ResponseHeadersPolicyId);
    for (const page of ['/', '/books/42', '/favicon.svg']) {
      expect(await localHeaders(`${web.url}${page}`), page).toEqual(app);
    }
    expect(app['cache-control']).toBe('no-cache');
    // The headers the deployment is held to, whatever web/src/csp.ts says today.
    expect(app['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(app['content-security-policy']).toMatch(
      /connect-src 'self' https:\/\/campus-books-dev-photos-123456789012\.s3\.us-east-1\.amazonaws\.com;/,
    );
    expect(app['x-content-type-options']).toBe('nosniff');
    expect(app['referrer-policy']).toBe('no-referrer');
    expect(app['cross-origin-opener-policy']).toBe('same-origin');
    // Barcode scanning on the Sell form: the camera for this origin only, WebAssembly for the
    // ZXing decoder, the lookup's covers from Open Library's cover host.
    expect(app['permissions-policy']).toBe('camera=(self), microphone=(), geolocation=()');
    expect(app['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(app['content-security-policy']).toContain("img-src 'self' data: https://covers.openlibrary.org ");
  });

  it('sends the hashed assets the same headers, cached for a year', async () => {
    const behaviors = distribution().CacheBehaviors as {
      PathPattern: string;
      TargetOriginId: string;
      ResponseHeadersPolicyId: unknown;
    }[];
    const assets = behaviors.find((b) => b.PathPattern === 'assets/*');
    expect(assets?.TargetOriginId).toBe('web');
    const hashed = headersOf(assets?.ResponseHeadersPolicyId);
    expect(await localHeaders(`${web.url}/assets/index-abc123.js`)).toEqual(hashed);
    expect(hashed['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the API documentation page the local server headers, with its own policy', async () => {
    const behaviors = distribution().CacheBehaviors as {
      PathPattern: string;
      ResponseHeadersPolicyId: unknown;
    }[];
    const docs = headersOf(behaviors.find((b) => b.PathPattern === 'api-docs/*')?.ResponseHeadersPolicyId);
    expect(await localHeaders(`${web.url}/api-docs/index.html`)).toEqual(docs);
    expect(docs['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
    expect(docs['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(docs['x-content-type-options']).toBe('nosniff');
  });

  it('gives the deploy script the same upload origin the CSP allows', () => {
    expect(deployTime(template().Outputs?.PhotosUploadOrigin?.Value)).toBe(UPLOAD_ORIGIN);
  });
});
