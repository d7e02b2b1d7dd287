/**
 * Browser tests: Debian's Chromium driven by playwright-core (no browser download), the web app
 * built into a temporary folder and served beside the e2e tier's API (tests/setup/e2e-server.ts),
 * axe-core for accessibility, screenshots for docs/web.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { buildWeb, type RunningWeb, startWeb } from '#scripts/local/web.ts';
import { createConfirmedUser, DEFAULT_PASSWORD } from './accounts.ts';
import { makeBookBody } from './books.ts';
import { api, apiUrl } from './e2e.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
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
  /** A page in a fresh context (its own cookies: another browser), closed by stop(). */
  /** `scale`: device pixels per CSS pixel (1 when left out), for a dense phone or screen */
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

/** Lists a book over the API as `token`'s user; returns its id and title. */
export async function listBook(token: string, name = `Web Book ${Math.random().toString(36).slice(2, 8)}`) {
  const res = await api('POST', '/api/books/postBook', { token, body: makeBookBody({ name }) });
  expect(res.status).toBe(201);
  return { id: (res.body as { data: { id: string } }).data.id, name };
}

/** `token`'s user buys the book over the API (cart, then checkout); returns the order. */
export async function buyOverApi(token: string, bookId: string) {
  expect((await api('POST', '/api/user/addToCart', { token, body: { bookId } })).status).toBe(200);
  const placed = await api('POST', '/api/books/checkoutCart', { token });
  expect(placed.status).toBe(201);
  return (placed.body as { data: { id: string; total: number; createdAt: string } }).data;
}

/** The accessible name of the focused element: its label, aria-label or text. */
const FOCUSED_NAME = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return '';
  const label = el.labels && el.labels[0] ? el.labels[0].textContent : null;
  // the text a screen reader reads: without what is hidden from it (a badge's bare number)
  const read = (node) =>
    node.nodeType === 3 ? node.textContent
      : node.nodeType === 1 && node.getAttribute('aria-hidden') === 'true' ? ''
      : [...node.childNodes].map(read).join('');
  return (label ?? el.getAttribute('aria-label') ?? read(el) ?? '').trim();
})()`;

/**
 * Moves the focus with Tab only (Shift+Tab with `back`) until the focused element's accessible
 * name is `name`; fails when the whole page was tabbed through without finding it.
 */
export async function tabTo(page: Page, name: string, options: { back?: boolean; max?: number } = {}) {
  const seen: string[] = [];
  for (let i = 0; i < (options.max ?? 80); i++) {
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
    const focused = String(await page.evaluate(FOCUSED_NAME));
    if (focused === name) return;
    seen.push(focused);
  }
  expect.fail(`Tab never reached "${name}"; it went through: ${seen.join(' | ')}`);
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core on the page (injected over the DevTools protocol: the page's CSP stays on). */
/**
 * Follows a link (or presses a button) of the main navigation; on a phone the pages other than the
 * everyday ones are under "More", which is opened first.
 */
export async function goByNav(page: Page, name: string, role: 'link' | 'button' = 'link'): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const target = nav.getByRole(role, { name, exact: true });
  const more = nav.getByRole('button', { name: 'More' });
  // a link that needs a read first (Dashboard) may come a moment later: whichever shows first
  await target.or(more).first().waitFor();
  if (!(await target.isVisible())) await more.click();
  await target.click();
}

export async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(AXE);
  // Runs in the page (a string: this file is type-checked without the DOM library).
  const violations = (await page.evaluate(`axe.run(document).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
  })))`)) as { id: string; impact: string; help: string; nodes: string[] }[];
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    `axe on ${page.url()}`,
  ).toEqual([]);
}

/**
 * Saves a screenshot: into .screenshots/ (ignored) on every run, and into docs/screenshots/ (shown
 * in docs/web.md, committed) when UPDATE_SCREENSHOTS=1.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = path.join(ROOT, process.env.UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : '.screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/** Logs in through the login page and waits for the signed-in home page. */
export async function logIn(page: Page, emailAddress: string, password = DEFAULT_PASSWORD): Promise<void> {
  await page.goto('/login');
  await submitLogIn(page, emailAddress, password);
  await page.getByRole('heading', { level: 1, name: /Welcome/ }).waitFor();
}

/** Fills in the login form the page shows and submits it (where it lands is the caller's to check). */
export async function submitLogIn(
  page: Page,
  emailAddress: string,
  password = DEFAULT_PASSWORD,
): Promise<void> {
  await page.getByLabel('E-mail').fill(emailAddress);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * What the page's refresh cookie answers now, as a new tab of the same browser would ask it: the
 * status and a fresh access token (the app keeps its own in memory only, out of the tests' reach).
 */
export async function refreshFrom(page: Page): Promise<{ status: number; token: string }> {
  return page.evaluate(async () => {
    const res = await fetch('/api/auth/refresh', { method: 'POST', headers: { 'X-CSRF': '1' } });
    const body = (await res.json()) as { data: { token?: string } };
    return { status: res.status, token: body.data.token ?? '' };
  });
}

/** A valid bearer token of the page's session (from its refresh cookie). */
export async function tokenOf(page: Page): Promise<string> {
  const { status, token } = await refreshFrom(page);
  expect(status).toBe(200);
  return token;
}

/** The page's refresh cookie (one per cookie path; the first), or undefined. */
export async function refreshCookieOf(page: Page) {
  return (await page.context().cookies()).find((c) => c.name === 'cb_refresh' && c.value !== '');
}

/** The viewports the tests name: a phone's and a desktop's, in CSS pixels. */
const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };

/**
 * A new confirmed account (a student unless `profile` says otherwise), logged in on a fresh page of
 * `stack` (another browser: its own cookies), the page at the signed-in home page. `viewport` is
 * a phone's or a desktop's, or any size `newPage` takes.
 */
export async function signedIn(
  stack: WebStack,
  viewport?: keyof typeof VIEWPORTS | Parameters<WebStack['newPage']>[0],
  profile?: Parameters<typeof createConfirmedUser>[0],
) {
  const account = await createConfirmedUser(profile);
  const page = await stack.newPage(typeof viewport === 'string' ? VIEWPORTS[viewport] : viewport);
  await logIn(page, account.user.emailAddress);
  return { account, page };
}

/** A new student with one listed book, logged in on a fresh page of `stack` at `path`. */
export async function sellerWithBookAt(stack: WebStack, path: string) {
  const { account: seller, page } = await signedIn(stack);
  const book = await listBook(seller.token);
  await page.goto(path);
  return { seller, book, page };
}

/** The caller's e-mail preferences as the API answers them. */
export async function preferencesOf(token: string): Promise<unknown> {
  const res = await api('GET', '/api/user/getEmailPreferences', { token });
  expect(res.status).toBe(200);
  return (res.body as { data: unknown }).data;
}
