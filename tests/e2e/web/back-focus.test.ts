/**
 * Small things that make the app feel finished (issue 32 item 5), on a phone and a desktop: Back
 * from a book deep in the "More books" pages returns to the same card with the same pages loaded;
 * the focus moves to the new page's heading on navigation and to the result after "Add to cart"
 * and after adding or deleting a request;
 * a 400 shows each field's plain message under its field; an 84-character word widens neither the
 * browse page nor the book page of a 390 px phone.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createConfirmedUser, type TestAccount } from '#tests/helpers/accounts.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import { expectAccessible, logIn, screenshot } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const LONG = `W${'o'.repeat(82)}d`;

let student: TestAccount;
let longBookId: string;

/** 25 books at a campus nobody else uses (newest first: "Book 24" .. "Book 00", one page of 20 and a second of 5). */
beforeAll(async () => {
  expect(LONG).toHaveLength(84);
  const campus = `c${randomBytes(5).toString('hex')}.edu`;
  const at = () => createConfirmedUser({ emailAddress: `s-${randomBytes(5).toString('hex')}@${campus}` });
  const [seller, buyer] = await Promise.all([at(), at()]);
  student = buyer;
  const post = async (name: string, course = 'PHYS 101') => {
    const res = await api('POST', '/api/books/postBook', {
      token: seller.token,
      body: makeBookBody({ name, course, condition: 'good' }),
    });
    expect(res.status).toBe(201);
    return (res.body as { data: { id: string } }).data.id;
  };
  longBookId = await post(LONG, `C${'x'.repeat(38)}1`);
  for (let i = 0; i < 24; i++) await post(`Book ${String(i).padStart(2, '0')}`);
});

/** The tag name and text of the focused element. */
const focused = (page: Page) =>
  page.evaluate<{ tag: string; text: string }>(
    '({ tag: document.activeElement.tagName, text: document.activeElement.textContent.trim() })',
  );

const cards = (page: Page) => page.locator('ul.books.grid .card');

/** A page of `viewport` with the student logged in, then at `path` when given. */
async function studentPage(viewport: { width: number; height: number }, path?: string): Promise<Page> {
  const page = await web().newPage(viewport);
  await logIn(page, student.user.emailAddress);
  if (path) await page.goto(path);
  return page;
}

describe.each([
  ['phone', PHONE],
  ['desktop', DESKTOP],
])('on a %s', (_name, viewport) => {
  it('Back from a book deep in "More books" returns to the same card, every page still loaded', async () => {
    const page = await studentPage(viewport);
    await page.locator('ul.books.grid[aria-busy="false"] .card').first().waitFor();
    expect(await cards(page).count()).toBe(20);
    await page.getByRole('button', { name: 'More books' }).click();
    await expect.poll(() => cards(page).count()).toBe(25);
    const link = page.getByRole('link', { name: 'Book 01', exact: true });
    await link.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate<number>('window.scrollY');
    expect(scrolled).toBeGreaterThan(0);
    await link.click();

    // A new page: its heading has the focus.
    const heading = page.getByRole('heading', { level: 1, name: 'Book 01' });
    await heading.waitFor();
    await expect.poll(() => focused(page)).toEqual({ tag: 'H1', text: 'Book 01' });
    expect(await page.evaluate<number>('window.scrollY')).toBe(0);

    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/');
    // the same pages, from the cache, and the card where it was
    await expect.poll(() => cards(page).count()).toBe(25);
    await expect.poll(() => page.evaluate<number>('window.scrollY')).toBe(scrolled);
    const box = await page.getByRole('link', { name: 'Book 01', exact: true }).boundingBox();
    expect(box && box.y >= 0 && box.y + box.height <= viewport.height, `card at ${box?.y}`).toBe(true);
    // the background refresh ends with the same 25 books, and no "More books" to press again
    await page.locator('ul.books.grid[aria-busy="false"]').waitFor();
    expect(await cards(page).count()).toBe(25);
    expect(await page.getByRole('button', { name: 'More books' }).count()).toBe(0);
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'H1' });

    // Forward returns to the top of the book page it left.
    await page.goForward();
    await heading.waitFor();
    await expect.poll(() => page.evaluate<number>('window.scrollY')).toBe(0);
  });

  it('moves the focus to the heading on navigation and to the result after "Add to cart"', async () => {
    const page = await studentPage(viewport);
    // the first page of a visit keeps the browser's start; a link moves the focus to the new heading
    await page.getByRole('link', { name: 'Book 23', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Book 23' }).waitFor();
    await expect.poll(() => focused(page)).toEqual({ tag: 'H1', text: 'Book 23' });
    await page.getByRole('button', { name: 'Add to cart' }).click();
    const status = page.getByRole('status').filter({ hasText: 'In your cart.' });
    await status.waitFor();
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'P', text: 'In your cart. Go to the cart.' });
    const cart = await api('GET', '/api/user/getCartItems', { token: student.token });
    expect(JSON.stringify(cart.body)).toContain('Book 23');

    // The navigation's Cart link: the cart page's heading.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Cart/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Cart' }).waitFor();
    await expect.poll(() => focused(page)).toEqual({ tag: 'H1', text: 'Cart' });
    await expectAccessible(page);
    expect(
      (await api('POST', '/api/user/clearCart', { token: student.token })).status,
      'the cart emptied for the next test',
    ).toBe(200);
  });

  it('moves the focus to the result after adding and deleting a request', async () => {
    const page = await studentPage(viewport, '/requests');
    const name = `Focus ${randomBytes(3).toString('hex')}`;
    await page.getByLabel('Title').fill(name);
    await page.getByLabel('Course').fill('FOC 101');
    await page.getByRole('button', { name: 'Add the request' }).click();
    await expect
      .poll(() => focused(page))
      .toEqual({
        tag: 'P',
        text: `Request added: books already listed show below as they are found, and we tell you when “${name}” is listed.`,
      });
    const listed = await api('GET', '/api/user/getRequests', { token: student.token });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain(name);
    // the pressed button goes with its request: the focus goes to what happened, not to the page's top
    // (deleting asks first: confirm.test.ts checks the question)
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: `Delete the request for ${name}` }).click();
    await expect
      .poll(() => focused(page))
      .toEqual({ tag: 'P', text: `The request for “${name}” is deleted.` });
    const after = await api('GET', '/api/user/getRequests', { token: student.token });
    expect(JSON.stringify(after.body)).not.toContain(name);
    await expectAccessible(page);
  });

  it('shows a 400 as plain messages under their fields, never schema text', async () => {
    const page = await studentPage(viewport, '/sell');
    const title = `Plain ${randomBytes(4).toString('hex')}`;
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Edition').fill('0');
    await page.getByLabel('Course (e.g. CSC 171)').fill('CSC 171');
    await page.getByLabel('Price in dollars').fill('20000');
    await page.getByRole('button', { name: 'List the book' }).click();
    const under = async (label: string) => {
      const field = page.getByLabel(label, { exact: true });
      await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
      const id = await field.getAttribute('aria-describedby');
      return page.locator(`[id="${id}"]`).textContent();
    };
    // an edition of 0 is caught before sending (web/src/ui/book-fields.tsx), in plain words
    expect(await under('Edition')).toBe('Enter the edition as a whole number from 1 to 100.');
    // the price's range is the service's rule: its 400's message, under the field
    await page.getByLabel('Edition').fill('1');
    await page.getByRole('button', { name: 'List the book' }).click();
    expect(await under('Price in dollars')).toBe('A price is at most $10,000.');
    await expect.poll(() => page.getByLabel('Edition').getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByLabel('Title').getAttribute('aria-invalid')).toBeNull();
    expect(await page.locator('main').textContent()).not.toMatch(/expected|>=|<=|Too (small|big)/);
    await expectAccessible(page);
    await screenshot(page, `sell-plain-errors-${_name}`);
    const posts = await api('GET', '/api/books/getAllBooks', { token: student.token });
    expect(JSON.stringify(posts.body)).not.toContain(title);
  });
});

describe('an 84-character word', () => {
  it('widens neither the browse page nor the book page of a 390 px phone', async () => {
    const page = await studentPage(PHONE);
    await page.getByRole('button', { name: 'More books' }).click();
    await page.getByRole('link', { name: LONG }).waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.getByRole('link', { name: LONG }).click();
    await page.getByRole('heading', { level: 1, name: LONG }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/books/${encodeURIComponent(longBookId)}`);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(page, 'book-long-word-phone');
    await expectAccessible(page);
  });
});
