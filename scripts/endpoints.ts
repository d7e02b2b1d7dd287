/**
 * Writes docs/endpoints.md from docs/openapi.json (`npm run openapi` runs it after the document);
 * with `--check` (CI) it fails when the committed table is not what it would write.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { endpointsMarkdown, type OpenApiDocument } from '#scripts/docs/endpoints-table.ts';

const root = path.resolve(import.meta.dirname, '..');
const doc = JSON.parse(readFileSync(path.join(root, 'docs', 'openapi.json'), 'utf8')) as OpenApiDocument;
const file = path.join(root, 'docs', 'endpoints.md');
const text = endpointsMarkdown(doc);

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    /* missing: differs */
  }
  if (committed !== text) {
    console.error('docs/endpoints.md is out of date: run `npm run openapi` and commit the result.');
    process.exit(1);
  }
  console.log('docs/endpoints.md is up to date.');
} else {
  writeFileSync(file, text);
  console.log('wrote docs/endpoints.md');
}
