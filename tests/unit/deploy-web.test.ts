import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { uploadWeb } from '#scripts/deploy-web.ts';

describe('npm run deploy: the web upload step', () => {
  it('skips the upload with one clear line when there is no web build, and does not fail the deploy', () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'no-web-dist-'));
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(uploadWeb(['--stage', 'prod'], empty)).toBe(0);
      expect(log).toHaveBeenCalledTimes(1);
      expect(log.mock.calls[0]?.[0]).toMatch(
        /^\[deploy\] web upload skipped: .*index\.html does not exist\. Build the web app \(web\/\), then run: npm run deploy:web -- --stage <stage>$/,
      );
    } finally {
      log.mockRestore();
    }
  });
});
