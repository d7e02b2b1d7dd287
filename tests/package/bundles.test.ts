/**
 * Bundle sizes, checked on every packaging (issue 19): each HTTP function's minified JavaScript
 * (the .mjs/.js files in its zip, source maps left out) stays within the cap the benchmark uses
 * (bench/harness/report.ts BUNDLE_CAP_BYTES, 350 KB), except the functions named below with
 * their own cap and the reason. The background functions (stream consumer, scheduled jobs, mail
 * feedback, photo processing and sweeping) are not held to it; their sizes are printed.
 *
 * What keeps the others under it: zod/mini instead of classic zod (lib/zod.ts) and the trims of
 * esbuild.plugins.cjs (only the SDK operations sent, no event-stream codec, no JavaScript SHA-256).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { BACKGROUND_FUNCTIONS, BUNDLE_CAP_BYTES, EXEMPT_HTTP as EXEMPT } from '#bench/harness/bundle-caps.ts';
import { unzip } from '#bench/harness/coldstart.ts';
import { lambdaFunctions, resourcesOfType } from '#tests/helpers/template.ts';

/** The serverless.yml names of the functions API Gateway integrates with. */
function httpFunctionNames(): Set<string> {
  const integrated = Object.values(resourcesOfType('AWS::ApiGatewayV2::Integration')).map((i) =>
    JSON.stringify(i.Properties.IntegrationUri),
  );
  const names = new Set<string>();
  for (const name of Object.keys(lambdaFunctions())) {
    const logicalId = `${name.charAt(0).toUpperCase()}${name.slice(1)}LambdaFunction`;
    if (integrated.some((uri) => uri.includes(`"${logicalId}"`))) names.add(name);
  }
  return names;
}

/** The minified JavaScript files in a function's zip (source maps excluded). */
function bundleFiles(name: string): Buffer[] {
  const zip = path.join(path.dirname(inject('templatePath')), `${name}.zip`);
  return [...unzip(readFileSync(zip))]
    .filter(([file]) => /\.(m?js)$/.test(file))
    .map(([, content]) => content);
}

const bundleBytes = (name: string): number => bundleFiles(name).reduce((sum, c) => sum + c.length, 0);

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

describe('bundle sizes (packaged zips)', () => {
  it(`keeps every HTTP function's minified bundle within ${kb(BUNDLE_CAP_BYTES)}`, () => {
    const http = httpFunctionNames();
    expect(http.size).toBeGreaterThan(40);
    const sizes = [...http].map((name) => ({ name, bytes: bundleBytes(name) }));
    for (const s of sizes) expect(s.bytes, `${s.name}: empty bundle`).toBeGreaterThan(1024);
    const over = sizes
      .filter((s) => s.bytes > (EXEMPT[s.name]?.bytes ?? BUNDLE_CAP_BYTES))
      .map((s) => `${s.name} ${kb(s.bytes)}`);
    expect(over, `over ${kb(BUNDLE_CAP_BYTES)} (or an exemption's own cap)`).toEqual([]);
    for (const name of Object.keys(EXEMPT))
      expect(http.has(name), `exempt ${name} is an HTTP function`).toBe(true);
    console.info(
      `exempt: ${Object.entries(EXEMPT)
        .map(([n, e]) => `${n} ${kb(bundleBytes(n))} (${e.why}; cap ${kb(e.bytes)})`)
        .join(', ')}`,
    );
  });

  it("carries only the environment's credentials provider, never the SDK's whole chain", () => {
    // A function's credentials are always in its environment, so `aws-credentials-from-env`
    // (esbuild.plugins.cjs) resolves the SDK's default chain to its environment provider; the
    // rest of the chain (shared config files, SSO, credential processes, the container and
    // instance metadata endpoints) would be ~130 KB of clients that never run.
    const chain = ['sso_start_url', 'credential_process', 'AWS_CONTAINER_CREDENTIALS_FULL_URI'];
    const carrying = Object.keys(lambdaFunctions()).filter((name) =>
      bundleFiles(name).some((c) => chain.some((marker) => c.includes(marker))),
    );
    expect(carrying).toEqual([]);
  });

  it('writes no path of the machine that built them into any bundle', () => {
    const root = path.resolve(import.meta.dirname, '..', '..');
    const naming = Object.keys(lambdaFunctions()).filter((name) =>
      bundleFiles(name).some((c) => c.includes(root)),
    );
    expect(naming).toEqual([]);
  });

  it('names the background functions, which the cap does not cover, with their sizes', () => {
    const http = httpFunctionNames();
    const background = Object.keys(lambdaFunctions())
      .filter((name) => !http.has(name))
      .sort();
    expect(background).toEqual([...BACKGROUND_FUNCTIONS].sort());
    console.info(`background bundles: ${background.map((n) => `${n} ${kb(bundleBytes(n))}`).join(', ')}`);
  });
});
