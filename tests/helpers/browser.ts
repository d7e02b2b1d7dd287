/**
 * What browser tests do on their pages (tests/helpers/web-stack.ts starts the browser and the web
 * app): log in, move with the keyboard, set up over the API, axe-core for accessibility, screenshots
 * for docs/web.md.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { createConfirmedUser, DEFAULT_PASSWORD } from './accounts.ts';
import { makeBookBody } from './books.ts';
import { api } from './e2e.ts';
import type { WebStack } from './web-stack.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

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
 * Fills in the sign-up form the page shows for `emailAddress` (with the default password) and
 * submits it; waits for "Check your e-mail".
 */
export async function submitSignUp(
  page: Page,
  emailAddress: string,
  who: { firstName: string; lastName: string; campusMailbox: string; paymentUsername: string },
): Promise<void> {
  await page.getByLabel('University e-mail (.edu)').fill(emailAddress);
  await page.getByLabel('Password (8 to 72 characters)').fill(DEFAULT_PASSWORD);
  await page.getByLabel('First name').fill(who.firstName);
  await page.getByLabel('Last name').fill(who.lastName);
  await page.getByLabel('University', { exact: true }).fill('University of Testing');
  await page.getByLabel('Campus mailbox').fill(who.campusMailbox);
  await page.getByLabel('Payment username (e.g. Venmo)').fill(who.paymentUsername);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
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

/**
 * Two books of one seller in a buyer's cart, and a rival student who may buy one of them first (a
 * cart reserves nothing).
 */
export async function cartOfTwoBooks() {
  const [seller, buyer, rival] = await Promise.all([
    createConfirmedUser(),
    createConfirmedUser(),
    createConfirmedUser(),
  ]);
  const books = [await listBook(seller.token), await listBook(seller.token)] as const;
  for (const b of books)
    expect(
      (await api('POST', '/api/user/addToCart', { token: buyer.token, body: { bookId: b.id } })).status,
    ).toBe(200);
  return { seller, buyer, rival, books };
}

/** The caller's e-mail preferences as the API answers them. */
export async function preferencesOf(token: string): Promise<unknown> {
  const res = await api('GET', '/api/user/getEmailPreferences', { token });
  expect(res.status).toBe(200);
  return (res.body as { data: unknown }).data;
}
