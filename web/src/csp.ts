/**
 * The app's Content-Security-Policy: its own scripts and styles only, no inline script, no
 * third-party origin but the API's (when it lives elsewhere). Used by the build (a <meta> tag),
 * by the local server (a header) and written down for the hosting (CloudFront response headers).
 */
export function contentSecurityPolicy(apiOrigin?: string, asHeader = true): string {
  const connect = ["'self'", ...(apiOrigin ? [apiOrigin] : [])].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    // frame-ancestors is ignored in a <meta> policy: only the header can carry it.
    ...(asHeader ? ["frame-ancestors 'none'"] : []),
  ].join('; ');
}
