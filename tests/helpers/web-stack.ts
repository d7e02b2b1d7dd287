/**
 * The browser tier's stack: Debian's Chromium driven by playwright-core (no browser download), and
 * the web app built into a temporary folder and served beside the e2e tier's API
 * (tests/setup/e2e-server.ts). One per test file (`webStackForFile`); what a test does on its pages
 * is in tests/helpers/browser.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildWeb, type RunningWeb, startWeb } from '#scripts/local/web.ts';
import { apiUrl } from './e2e.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags that keep Chromium off the network it does not have (see STACK.md). */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface WebStack {
  browser: Browser;
  web: RunningWeb;
  url: string;
  /**
   * A page in a fresh context (its own cookies: another browser), closed by stop(). `scale`: device
   * pixels per CSS pixel (1 when left out), for a dense phone or screen.
   */
  newPage: (options?: { width: number; height: number; scale?: number }) => Promise<Page>;
  stop: () => Promise<void>;
}

/**
 * A Chromium with a fresh profile, with `args` beside the offline flags (e.g. a fake camera: the
 * video file is fixed per launch, so such a test launches its own beside the stack's).
 */
export const launchChromium = (args: string[] = []): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: [...FLAGS, ...args], headless: true });

/** Builds the app, serves it against the e2e API, launches Chromium (a fresh profile per launch). */
export async function startWebStack(): Promise<WebStack> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'campus-books-web-'));
  // Photos are shown from and uploaded to the e2e tier's S3 emulator: the CSP allows its origin.
  const photosUrl = inject('s3Endpoint');
  await buildWeb({ quiet: true, outDir, photosUrl });
  const web = await startWeb({ port: 0, apiUrl: apiUrl(), dir: outDir, photosUrl });
  const browser = await launchChromium();
  const contexts: BrowserContext[] = [];
  return {
    browser,
    web,
    url: web.url,
    newPage: async (options) => {
      const { scale, ...viewport } = options ?? {};
      const context = await browser.newContext({
        baseURL: web.url,
        ...(options ? { viewport: viewport as { width: number; height: number } } : {}),
        ...(scale ? { deviceScaleFactor: scale } : {}),
      });
      contexts.push(context);
      return context.newPage();
    },
    stop: async () => {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close();
      await web.stop();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/**
 * One web stack for the test file: started before its tests, stopped after them. Returns a getter
 * (the stack exists only once beforeAll has run).
 */
export function webStackForFile(): () => WebStack {
  let stack: WebStack | undefined;
  beforeAll(async () => {
    stack = await startWebStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });
  return () => {
    if (!stack) throw new Error('the web stack is not started yet');
    return stack;
  };
}
