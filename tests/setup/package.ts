import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

const run = promisify(execFile);

/**
 * Packaging tier: `serverless package --stage dev` once (offline, no AWS credentials; ~20 s to
 * minutes on a busy machine) into a temporary directory; the tests read its CloudFormation templates
 * (the root stack's and, beside it, its nested stacks': tests/helpers/template.ts).
 * PACKAGED_TEMPLATE=<path> reuses a template already packaged from this tree (a local shortcut),
 * PACKAGED_TMP=<folder> names the TMPDIR that packaging ran with (tests/package/scratch-tmp.test.ts).
 */
export default async function setup(project: TestProject) {
  const reuse = process.env.PACKAGED_TEMPLATE;
  if (reuse) {
    // A copy: another test (tests/e2e/packaging.test.ts) runs `serverless package`, which empties
    // .serverless of this tree while the package tier may still be reading the template.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'campus-books-template-'));
    const copy = path.join(dir, 'cloudformation-template-update-stack.json');
    copyFileSync(path.resolve(reuse), copy);
    // ...and beside it the nested stacks' templates (infra/stacks-map.cjs) and the functions' zips,
    // which tests/package/bundles.test.ts measures.
    const from = path.dirname(path.resolve(reuse));
    for (const f of readdirSync(from))
      if (f.endsWith('.zip') || /-nested-stack(-\d+)?\.json$/.test(f))
        copyFileSync(path.join(from, f), path.join(dir, f));
    project.provide('templatePath', copy);
    // the TMPDIR that package ran with, when its runner says (.ci/run does)
    project.provide('packageTmp', process.env.PACKAGED_TMP || null);
    return () => rmSync(dir, { recursive: true, force: true });
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'campus-books-package-'));
  // The temp folder packaging sees: it must be left empty (tests/package/scratch-tmp.test.ts).
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'campus-books-package-tmp-'));
  const bin = path.resolve('node_modules', '.bin', 'serverless');
  await run(bin, ['package', '--stage', 'dev', '--package', dir], {
    env: {
      ...process.env,
      AWS_ACCESS_KEY_ID: '',
      AWS_SECRET_ACCESS_KEY: '',
      AWS_PROFILE: '',
      // A deployed stage's photos bucket comes from its params, never the deployer's shell:
      // tests/package/operations.test.ts finds the params' name despite this.
      PHOTOS_BUCKET: 'from-the-shell-not-the-stage',
      TMPDIR: tmp,
    },
    maxBuffer: 32 * 1024 * 1024,
    timeout: 600_000,
  });
  const template = path.join(dir, 'cloudformation-template-update-stack.json');
  if (!existsSync(template)) throw new Error(`serverless package wrote no template in ${dir}`);
  project.provide('templatePath', template);
  project.provide('packageTmp', tmp);
  return () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(tmp, { recursive: true, force: true });
  };
}
