/**
 * The web app on this machine: builds web/ (Vite) and serves web/dist with the headers the
 * deployment must also send (CSP and friends), every unknown path answered with index.html (the
 * app routes in the browser), and /api/* passed on to the API, so the browser sees one origin and
 * needs no CORS. Used by `npm start` and by the browser tests.
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { apiDocsPolicy, CACHE_CONTROL, HASHED_ASSETS_DIR, originsOf, securityHeaders } from '#web/csp.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB_DIR = path.join(ROOT, 'web');
export const WEB_DIST = path.join(WEB_DIR, 'dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  // the barcode decoder (ZXing): compiled while it streams in only when sent as application/wasm
  '.wasm': 'application/wasm',
};

/** Text types sent compressed when the browser accepts it, as CloudFront does on a deployed stage. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt']);

/** One file's compressed bodies, made once per file version (path, size and time of change). */
const compressed = new Map<string, Buffer>();

/**
 * The encoding to send `file` with (`br` first, then `gzip`) for an `Accept-Encoding` header, or
 * undefined to send it as it is.
 */
export function encodingFor(file: string, accept: string | undefined): 'br' | 'gzip' | undefined {
  if (!COMPRESSIBLE.has(path.extname(file)) || !accept) return undefined;
  const offered = accept
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q.trim()))
    .map(([name]) => name?.trim().toLowerCase());
  if (offered.includes('br')) return 'br';
  if (offered.includes('gzip')) return 'gzip';
  return undefined;
}

function compressedBody(file: string, encoding: 'br' | 'gzip'): Buffer {
  const { size, mtimeMs } = statSync(file);
  const key = `${encoding} ${file} ${size} ${mtimeMs}`;
  let body = compressed.get(key);
  if (!body) {
    const raw = readFileSync(file);
    body =
      encoding === 'br'
        ? brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } })
        : gzipSync(raw, { level: 9 });
    compressed.set(key, body);
  }
  return body;
}

/**
 * Builds the app with Vite into `outDir` (default web/dist); fails when the initial JS is over
 * budget. `photosUrl`: the photo store's URL (the S3 emulator), allowed by the built-in CSP;
 * `apiUrl`: VITE_API_URL for this build (`''`: the API on the app's origin), else the shell's.
 */
export async function buildWeb(
  options: { quiet?: boolean; outDir?: string; photosUrl?: string; apiUrl?: string } = {},
): Promise<void> {
  const { build } = await import('vite');
  // Always React's production build: Vite follows NODE_ENV when it is set, and a test run sets it
  // to `test` (which would build React's development bundle, not what is deployed).
  const saved = {
    NODE_ENV: process.env.NODE_ENV,
    VITE_PHOTOS_URL: process.env.VITE_PHOTOS_URL,
    VITE_API_URL: process.env.VITE_API_URL,
  };
  process.env.NODE_ENV = 'production';
  if (options.photosUrl) process.env.VITE_PHOTOS_URL = options.photosUrl;
  if (options.apiUrl !== undefined) process.env.VITE_API_URL = options.apiUrl;
  try {
    await build({
      configFile: path.join(WEB_DIR, 'vite.config.ts'),
      mode: 'production',
      logLevel: options.quiet ? 'warn' : 'info',
      build: { outDir: options.outDir ?? WEB_DIST },
    });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

export interface RunningWeb {
  url: string;
  stop: () => Promise<void>;
}

/**
 * Serves a build (`dir`, default web/dist) on `port` (0: any free port), proxying /api/* to
 * `apiUrl`; `photosUrl` (the photo store) is allowed by the CSP header.
 */
export function startWeb(options: {
  port: number;
  apiUrl: string;
  dir?: string;
  photosUrl?: string;
}): Promise<RunningWeb> {
  const api = new URL(options.apiUrl);
  // web/src/csp.ts's headers: the very ones CloudFront sends on a deployed stage.
  const headers = securityHeaders({ photoOrigins: originsOf(options.photosUrl) });
  const dist = options.dir ?? WEB_DIST;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      const upstream = http.request(
        {
          hostname: api.hostname,
          port: api.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: api.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
        res.end('The API is not reachable.');
      });
      req.pipe(upstream);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    if (url.pathname === '/api-docs') {
      res.writeHead(301, { ...headers, Location: '/api-docs/' }).end();
      return;
    }
    const docs = url.pathname.startsWith('/api-docs/');
    const pathname = url.pathname === '/api-docs/' ? '/api-docs/index.html' : url.pathname;
    const wanted = path.normalize(path.join(dist, decodeURIComponent(pathname)));
    const isFile = wanted.startsWith(dist + path.sep) && existsSync(wanted) && statSync(wanted).isFile();
    const file = isFile ? wanted : path.join(dist, 'index.html');
    const hashed = isFile && wanted.startsWith(path.join(dist, HASHED_ASSETS_DIR) + path.sep);
    const type = path.extname(file);
    const encoding = encodingFor(file, req.headers['accept-encoding']);
    const body = encoding ? compressedBody(file, encoding) : undefined;
    res.writeHead(200, {
      ...(docs && isFile ? { ...headers, 'Content-Security-Policy': apiDocsPolicy() } : headers),
      'Content-Type': TYPES[type] ?? 'application/octet-stream',
      // Content-hashed assets never change; index.html must be fetched again after a deploy.
      'Cache-Control': hashed ? CACHE_CONTROL.hashed : CACHE_CONTROL.other,
      // Text is sent compressed to a browser that accepts it; caches keep one copy per encoding.
      ...(COMPRESSIBLE.has(type) ? { Vary: 'Accept-Encoding' } : {}),
      ...(encoding && body ? { 'Content-Encoding': encoding, 'Content-Length': body.length } : {}),
    });
    if (req.method === 'HEAD') res.end();
    else if (body) res.end(body);
    else createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://localhost:${port}`,
        stop: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
