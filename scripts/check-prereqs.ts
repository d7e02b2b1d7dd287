/**
 * `npm test` runs this first (package.json "pretest"): one line per missing prerequisite, exit 1.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingPrerequisites } from './local/prereqs.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const missing = missingPrerequisites({ root, browser: true });
for (const line of missing) console.error(`[prereqs] ${line}`);
if (missing.length > 0) process.exit(1);
