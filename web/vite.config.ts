/**
 * The web app's build. `npm run web:build` writes web/dist (content-hashed files); the initial
 * JavaScript (the entry and what it imports statically) must stay within 150 KB gzipped, or the
 * build fails. The API documentation page goes to web/dist/api-docs/ (web/api-docs.ts). `npm run web:dev` serves it with hot reload and proxies /api to the local API.
 */
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { apiDocs } from './api-docs.ts';
import { contentSecurityPolicy, originsOf } from './src/csp.ts';

export const INITIAL_JS_BUDGET = 150 * 1024;

function initialJsBudget(): Plugin {
  return {
    name: 'initial-js-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const initial = new Set<string>();
      const visit = (name: string) => {
        const chunk = byName.get(name);
        if (!chunk || initial.has(name)) return;
        initial.add(name);
        for (const dep of chunk.imports) visit(dep);
      };
      for (const c of chunks) if (c.isEntry) visit(c.fileName);
      const size = [...initial].reduce((n, name) => n + gzipSync(byName.get(name)?.code ?? '').length, 0);
      const kb = (size / 1024).toFixed(1);
      const message = `initial JavaScript: ${kb} KB gzipped (budget ${INITIAL_JS_BUDGET / 1024} KB) in ${[...initial].join(', ')}`;
      if (size > INITIAL_JS_BUDGET) this.error(`${message}: over the budget`);
      console.log(message);
    },
  };
}

function cspMeta(apiUrl: string | undefined, photosUrl: string | undefined): Plugin {
  const apiOrigin = apiUrl ? new URL(apiUrl).origin : undefined;
  return {
    name: 'csp-meta',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: {
          'http-equiv': 'Content-Security-Policy',
          content: contentSecurityPolicy(apiOrigin, false, originsOf(photosUrl)),
        },
        injectTo: 'head-prepend',
      },
    ],
  };
}

export default defineConfig(() => {
  const apiUrl = process.env.VITE_API_URL || undefined;
  // Where photos are shown from and uploaded to, when not this site (the S3 emulator locally).
  const photosUrl = process.env.VITE_PHOTOS_URL || undefined;
  return {
    root: import.meta.dirname,
    plugins: [react(), cspMeta(apiUrl, photosUrl), initialJsBudget(), apiDocs()],
    build: { outDir: 'dist', emptyOutDir: true },
    server: {
      port: Number(process.env.WEB_PORT ?? 3000),
      proxy: { '/api': process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}` },
    },
  };
});
