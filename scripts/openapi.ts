/**
 * `npm run openapi`: writes the OpenAPI document (docs/openapi.json) from the routes in
 * serverless.yml and the zod schemas their handlers carry.
 * `npm run openapi:check` (CI): builds it in memory and fails when docs/openapi.json differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Handlers read their configuration when imported; the local defaults are enough to describe them.
process.env.STAGE = 'local';
process.env.LOG_LEVEL = 'ERROR';

const { generateDocument, serializeDocument } = await import('#scripts/openapi/document.ts');
const { PROJECT_ROOT } = await import('#scripts/openapi/routes.ts');
const { writeOrCheck } = await import('#scripts/docs/generated-file.ts');

const file = path.join(PROJECT_ROOT, 'docs', 'openapi.json');
const check = process.argv.includes('--check');

// functions/docs/openapi.ts bundles this very file, and the generator imports that handler: a
// missing or unparsable file (say, merge conflict markers) would stop the generator itself.
let parsable = false;
try {
  JSON.parse(readFileSync(file, 'utf8'));
  parsable = true;
} catch {
  /* missing or broken */
}
if (!parsable) {
  if (check) {
    console.error('docs/openapi.json is missing or not JSON: run `npm run openapi` and commit the result.');
    process.exit(1);
  }
  writeFileSync(file, '{}\n');
}
const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
const text = serializeDocument(await generateDocument(PROJECT_ROOT, pkg.version));

const doc = JSON.parse(text) as { paths: Record<string, object> };
const operations = Object.values(doc.paths).reduce((n, p) => n + Object.keys(p).length, 0);
writeOrCheck(text, {
  root: PROJECT_ROOT,
  file,
  command: 'npm run openapi',
  wroteNote: ` (${operations} operations)`,
});
