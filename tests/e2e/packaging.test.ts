/**
 * The processor's Lambda zip carries sharp for the functions' platform (linux arm64), whatever this
 * machine is, and no other function carries sharp. Packages the photo functions alone (a copy of
 * serverless.yml with only functions/photos, its own esbuild work folder so a running e2e server's
 * bundles are untouched), offline but for the npm registry.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const tag = `${process.pid}-${Date.now()}`;
const config = `serverless.packaging-test-${tag}.yml`;
const workFolder = `.esbuild-packaging-test-${tag}`;
const out = mkdtempSync(path.join(os.tmpdir(), 'campus-books-package-'));

afterAll(() => {
  rmSync(path.join(ROOT, config), { force: true });
  rmSync(path.join(ROOT, workFolder), { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

/** serverless.yml with only the photo functions (and the API docs), and its own esbuild work folder. */
function photosOnlyConfig(): string {
  const yml = readFileSync(path.join(ROOT, 'serverless.yml'), 'utf8');
  const onlyPhotos = yml.replace(
    /^ {2}- \$\{file\(\.\/functions\/(\w+)\/functions\.yml\)\}\n/gm,
    // docs too: one HTTP route, so the stack has the API stage infra/edge.yml extends.
    (line, area) => (area === 'photos' || area === 'docs' ? line : ''),
  );
  expect(onlyPhotos).toContain('./functions/photos/functions.yml');
  expect(onlyPhotos).not.toContain('./functions/books/functions.yml');
  const own = onlyPhotos.replace(/^ {4}outputWorkFolder: .*$/m, `    outputWorkFolder: ${workFolder}`);
  expect(own).toContain(`outputWorkFolder: ${workFolder}`);
  return own;
}

const entries = async (zip: string): Promise<string[]> => {
  const { stdout } = await run('unzip', ['-Z1', path.join(out, zip)], { maxBuffer: 64 * 1024 * 1024 });
  return stdout.split('\n').filter(Boolean);
};

describe('packaging for Lambda (linux arm64)', () => {
  it('puts sharp with @img/sharp-linux-arm64 and its libvips into the processor zip only', async () => {
    writeFileSync(path.join(ROOT, config), photosOnlyConfig());
    const require = createRequire(import.meta.url);
    const bin = path.join(path.dirname(require.resolve('serverless/package.json')), 'bin', 'serverless.js');
    await run(process.execPath, [bin, 'package', '--config', config, '--stage', 'dev', '--package', out], {
      cwd: ROOT,
      env: { ...process.env, SLS_TELEMETRY_DISABLED: '1', SLS_NOTIFICATIONS_MODE: 'off' },
      maxBuffer: 64 * 1024 * 1024,
    });

    const processor = await entries('photosProcess.zip');
    expect(processor).toContain('functions/photos/process.mjs');
    expect(processor).toContain('node_modules/sharp/package.json');
    expect(processor).toContain('node_modules/@img/sharp-linux-arm64/package.json');
    expect(
      processor.some((f) =>
        /^node_modules\/@img\/sharp-linux-arm64\/lib\/sharp-linux-arm64[-.0-9]*\.node$/.test(f),
      ),
    ).toBe(true);
    expect(
      processor.some((f) => /^node_modules\/@img\/sharp-libvips-linux-arm64\/lib\/libvips-cpp\.so/.test(f)),
    ).toBe(true);
    // Nothing for the build machine's platform.
    expect(processor.filter((f) => /@img\/sharp-(libvips-)?linux-x64/.test(f))).toEqual([]);

    const sweeper = await entries('photosSweepSlots.zip');
    expect(sweeper).toContain('functions/photos/sweep-slots.mjs');
    expect(sweeper.filter((f) => f.includes('sharp'))).toEqual([]);
  }, 900_000);
});
