/**
 * The API documentation page: Swagger UI (npm `swagger-ui-dist`), served by the service itself
 * from /api/docs/assets/{file} (no CDN; works offline), reading /api/openapi.json. URLs are
 * relative, so the page works under any host or prefix. No inline script: the start-up code is
 * its own file, so the Content-Security-Policy can keep `script-src 'self'`.
 * Nothing here imports zod or the AWS SDK: the docs functions stay small.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export const DOCS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Campus Books API</title>
<link rel="stylesheet" href="docs/assets/swagger-ui.css">
</head>
<body>
<noscript>This page needs JavaScript. The raw document is at <a href="openapi.json">openapi.json</a>.</noscript>
<div id="swagger-ui"></div>
<script src="docs/assets/swagger-ui-bundle.js"></script>
<script src="docs/assets/docs.js"></script>
</body>
</html>
`;

/** Starts Swagger UI on the document next to the page. */
export const DOCS_START_JS = `window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  defaultModelsExpandDepth: 0,
});
`;

/** Only this origin's scripts, styles, images and API calls; no framing, no forms elsewhere. */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Swagger UI sets style attributes at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const DOCS_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': DOCS_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Strict-Transport-Security': 'max-age=15552000; includeSubDomains',
};

/** A 404 in the marketplace error envelope, without importing the shared stack. */
export function docsNotFound(route: string, message: string): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: 404,
    headers: {
      ...DOCS_SECURITY_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
    },
    body: JSON.stringify({
      data: { error: message, code: 'NOT_FOUND' },
      time: new Date().toISOString(),
      method: route,
    }),
  };
}
