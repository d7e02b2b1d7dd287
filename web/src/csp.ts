/**
 * The app's Content-Security-Policy: its own scripts and styles only, no inline script, no
 * third-party origin but the API's (when it lives elsewhere) and the photo store's (images are
 * shown from it and uploaded to it with a presigned POST). Used by the build (a <meta> tag), by
 * the local server (a header) and written down for the hosting (CloudFront response headers).
 */
export function contentSecurityPolicy(
  apiOrigin?: string,
  asHeader = true,
  photoOrigins: string[] = [],
): string {
  const connect = ["'self'", ...(apiOrigin ? [apiOrigin] : []), ...photoOrigins].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    ["img-src 'self' data:", ...photoOrigins].join(' '),
    "font-src 'self'",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    // frame-ancestors is ignored in a <meta> policy: only the header can carry it.
    ...(asHeader ? ["frame-ancestors 'none'"] : []),
  ].join('; ');
}

/**
 * The policy of the API documentation page (web/api-docs.ts, served at /api-docs/): this origin's
 * scripts only, like the app's, but inline styles allowed (Swagger UI sets style attributes at run
 * time) and images and fonts from data: URLs (its icons); it reads only its own openapi.json.
 */
export function apiDocsPolicy(asHeader = true): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    ...(asHeader ? ["frame-ancestors 'none'"] : []),
  ].join('; ');
}

/** The origins of a comma-separated list of URLs (VITE_PHOTOS_URL, the photo store's). */
export const originsOf = (urls: string | undefined): string[] =>
  (urls ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean)
    .map((u) => new URL(u).origin);
