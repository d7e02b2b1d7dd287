/**
 * A local Serverless plugin that gives packaging a temporary folder of its own and removes it when
 * the command ends.
 *
 * serverless-esbuild (1.57) stages each function's zip in a folder under the system temp folder
 * (`<function>-<pid>-<time>-<hex>`) and never removes it: its release calls a non-recursive remove
 * on a folder that is never empty and swallows the error (floydspace/serverless-esbuild#589, not
 * merged). That is one folder per function on every `serverless package` or `deploy`: about 60, and
 * gigabytes on a developer's machine after a few weeks. Node's `os.tmpdir()` reads TMPDIR on every
 * call, so pointing TMPDIR at a folder of this command's own sends those folders there, and the
 * folder goes with the process (docs/deploy.md). Commands that build no zip (offline) are left alone.
 */
'use strict';

const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** The commands that zip functions. */
const PACKAGING = new Set(['package', 'deploy']);

class ScratchTmp {
  constructor(serverless) {
    const command = serverless.processedInput?.commands?.[0];
    this.hooks = {};
    if (!PACKAGING.has(command)) return;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'campus-books-sls-'));
    process.env.TMPDIR = dir;
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
}

module.exports = ScratchTmp;
