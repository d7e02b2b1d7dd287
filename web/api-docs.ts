/**
 * The API documentation page (Swagger UI from npm `swagger-ui-dist`), built into web/dist/api-docs/
 * as static files of the web app's origin: the page, the renderer's script and stylesheet, a
 * start-up script and docs/openapi.json beside them. URLs are relative, so the page works under
 * any host; no inline script, so its policy keeps `script-src 'self'`. The page carries its own
 * Content-Security-Policy (`apiDocsPolicy`, web/src/csp.ts): Swagger UI sets style attributes at run
 * time, which the app's policy does not allow.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';
import { apiDocsPolicy } from './src/csp.ts';

export const API_DOCS_DIR = 'api-docs';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${apiDocsPolicy(false)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Campus Books API</title>
<link rel="stylesheet" href="swagger-ui.css">
</head>
<body>
<noscript>This page needs JavaScript. The raw document is at <a href="openapi.json">openapi.json</a>.</noscript>
<div id="swagger-ui"></div>
<script src="swagger-ui-bundle.js"></script>
<script src="start.js"></script>
</body>
</html>
`;

/** Starts Swagger UI on the document next to the page. */
const START = `window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  defaultModelsExpandDepth: 0,
});
`;

/** Emits the page's files into the build. */
export function apiDocs(): Plugin {
  const require = createRequire(import.meta.url);
  const renderer = (file: string) => readFileSync(require.resolve(`swagger-ui-dist/${file}`));
  const files: Record<string, () => string | Uint8Array> = {
    'index.html': () => PAGE,
    'start.js': () => START,
    'swagger-ui-bundle.js': () => renderer('swagger-ui-bundle.js'),
    'swagger-ui.css': () => renderer('swagger-ui.css'),
    'openapi.json': () => readFileSync(path.join(import.meta.dirname, '..', 'docs', 'openapi.json')),
  };
  return {
    name: 'api-docs',
    apply: 'build',
    generateBundle() {
      for (const [name, source] of Object.entries(files))
        this.emitFile({ type: 'asset', fileName: `${API_DOCS_DIR}/${name}`, source: source() });
    },
  };
}
