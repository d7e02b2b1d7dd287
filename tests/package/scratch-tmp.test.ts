/**
 * Packaging leaves nothing behind in the system temp folder (infra/scratch-tmp.cjs):
 * serverless-esbuild stages every function's zip in a temp folder it never removes, one per function
 * and run. tsx's compile cache (`tsx-<uid>`), kept on purpose between runs, is the one thing left.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';

describe('serverless package', () => {
  const tmp = inject('packageTmp');
  it.skipIf(tmp === null)(
    'leaves no zip staging folder, nor its own scratch folder, in the temp folder',
    () => {
      const left = readdirSync(tmp as string).filter((name) => !/^tsx-\d+$/.test(name));
      expect(left).toEqual([]);
    },
  );
});
