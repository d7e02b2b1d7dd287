/**
 * Writes docs/endpoints.md from docs/openapi.json (`npm run openapi` runs it after the document);
 * with `--check` (CI) it fails when the committed table is not what it would write.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { endpointsMarkdown, type OpenApiDocument } from '#scripts/docs/endpoints-table.ts';
import { writeOrCheck } from '#scripts/docs/generated-file.ts';

const root = path.resolve(import.meta.dirname, '..');
const doc = JSON.parse(readFileSync(path.join(root, 'docs', 'openapi.json'), 'utf8')) as OpenApiDocument;
writeOrCheck(endpointsMarkdown(doc), {
  root,
  file: path.join(root, 'docs', 'endpoints.md'),
  command: 'npm run openapi',
});
