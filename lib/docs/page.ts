/**
 * The headers of the OpenAPI document route (functions/docs/openapi.ts). The documentation page
 * itself is static files of the web app (web/api-docs.ts). Nothing here imports zod or the AWS SDK:
 * the docs function stays small.
 */

/** A JSON document loads nothing and is framed nowhere. */
export const DOCS_CSP = "default-src 'none'; frame-ancestors 'none'";

export const DOCS_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': DOCS_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Strict-Transport-Security': 'max-age=15552000; includeSubDomains',
};
