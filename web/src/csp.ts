/**
 * The web app's security headers, in one place: the build writes the CSP into a <meta> tag
 * (web/vite.config.ts), the local server sends them all (scripts/local/web.ts), and CloudFront's
 * response headers policies are generated from this module at package time (infra/web-headers.cjs,
 * infra/edge.yml); tests/package/web-headers.test.ts holds CloudFront to what the local server sends.
 */

/**
 * What the app asks of the browser beyond its own scripts. Scanning a barcode on the Sell form
 * (web/src/features/sell/barcode-scan.tsx) uses `camera` (Permissions-Policy `camera=(self)`) and
 * `webAssembly` (the CSP's `script-src 'wasm-unsafe-eval'`: the ZXing decoder where the browser has
 * no BarcodeDetector): this object is the one switch, every place follows.
 */
export const BROWSER_FEATURES: { camera: boolean; webAssembly: boolean } = {
  camera: true,
  webAssembly: true,
};

/**
 * Where the ISBN lookup's covers are shown from: Open Library's cover host, the one origin a book's
 * cover may come from (lib/books/cover-url.ts, whose `COVER_ORIGIN` tests/unit/books/cover-url.test.ts
 * holds equal to this one; postBook refuses any other). The Sell form, the cards and the book page
 * show a cover only from here, so the CSP's `img-src` names exactly this one origin.
 */
export const COVER_ORIGIN = 'https://covers.openlibrary.org';

/**
 * The app's Content-Security-Policy: its own scripts and styles only, no inline script, no
 * third-party origin but the API's (when it lives elsewhere), the photo store's (images are
 * shown from it and uploaded to it with a presigned POST) and the cover host's (images only).
 */
export function contentSecurityPolicy(
  apiOrigin?: string,
  asHeader = true,
  photoOrigins: string[] = [],
): string {
  const connect = ["'self'", ...(apiOrigin ? [apiOrigin] : []), ...photoOrigins].join(' ');
  return [
    "default-src 'self'",
    ["script-src 'self'", ...(BROWSER_FEATURES.webAssembly ? ["'wasm-unsafe-eval'"] : [])].join(' '),
    "style-src 'self'",
    ["img-src 'self' data:", COVER_ORIGIN, ...photoOrigins].join(' '),
    "font-src 'self'",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    // frame-ancestors is ignored in a <meta> policy: only the header can carry it.
    ...(asHeader ? ["frame-ancestors 'none'"] : []),
  ].join('; ');
}

/** Powerful features the app does not use are off for it and for anything it could embed. */
export const permissionsPolicy = (): string =>
  [`camera=(${BROWSER_FEATURES.camera ? 'self' : ''})`, 'microphone=()', 'geolocation=()'].join(', ');

/**
 * Every header a page of the app is served with, by the local server and by CloudFront (whose
 * photo store's upload origin is in the CSP). `apiOrigin`: only when the API is another origin.
 */
export const securityHeaders = (
  options: { photoOrigins?: string[]; apiOrigin?: string } = {},
): Record<string, string> => ({
  'Content-Security-Policy': contentSecurityPolicy(options.apiOrigin, true, options.photoOrigins ?? []),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': permissionsPolicy(),
});

/** The build's content-hashed files live under this folder of web/dist. */
export const HASHED_ASSETS_DIR = 'assets';

/** Hashed files never change; everything else (index.html first) is fetched again after a deploy. */
export const CACHE_CONTROL = {
  hashed: 'public, max-age=31536000, immutable',
  other: 'no-cache',
} as const;

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
