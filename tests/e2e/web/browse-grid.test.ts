/**
 * Browse built for a phone (issue 32, items 1 and 5): a book card on the first phone screen, a
 * grid of 2 columns on a phone and 4 or more on a desktop, a sort change alone re-querying and
 * landing in the address, add-to-cart from the grid, an 84-character word that does not widen the
 * page, and the main script served compressed.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import { expectAccessible, logIn, webStackForFile } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';

const web = webStackForFile();

/** A campus nobody else uses, a seller there with `names` listed, and a student there. */
async function campusWithBooks(names: string[]) {
  const campus = `c${randomBytes(5).toString('hex')}.edu`;
  const at = () => createConfirmedUser({ emailAddress: `s-${randomBytes(5).toString('hex')}@${campus}` });
  const [seller, student] = await Promise.all([at(), at()]);
  for (const [i, name] of names.entries()) {
    const res = await api('POST', '/api/books/postBook', {
      token: seller.token,
      body: makeBookBody({ name, price: 10 + i, condition: 'good' }),
    });
    expect(res.status).toBe(201);
  }
  return { student };
}

/** The number of columns the grid lays its cards in. */
const columns = async (page: Page): Promise<number> => {
  await page.locator('ul.books.grid[aria-busy="false"]').waitFor();
  const template = await page.evaluate<string>(
    `getComputedStyle(document.querySelector('ul.books.grid[aria-busy="false"]')).gridTemplateColumns`,
  );
  return template.split(' ').length;
};

describe('browse on a phone and a desktop', () => {
  it('shows a card on the first phone screen, two columns, long words wrapped, sort in the address', async () => {
    const long = `Q${'x'.repeat(83)}`;
    expect(long).toHaveLength(84);
    const { student } = await campusWithBooks([long, 'Cheap optics', 'Dear waves']);
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, student.user.emailAddress);
    await page.goto('/');
    const card = page.locator('ul.books.grid .card').first();
    await card.waitFor();
    const box = await card.boundingBox();
    expect(box && box.y + 40 < 844, `first card at ${box?.y}`).toBe(true);
    expect(await columns(page)).toBe(2);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    // A book without a photo has a generated cover with its course.
    await expect.poll(() => page.locator('ul.books.grid .cover').count()).toBe(3);

    // Sort alone: the list is asked again, sorted, and the address says so.
    const asked = page.waitForRequest(
      (r) => r.url().includes('getAllBooks') && r.url().includes('price-desc'),
    );
    await page.getByLabel('Sort').focus();
    await page.getByLabel('Sort').selectOption('price-desc');
    await asked;
    expect(new URL(page.url()).searchParams.get('sort')).toBe('price-desc');
    await page.locator('ul.books.grid[aria-busy="false"]').waitFor();
    // the list just chosen keeps the focus (the form is not remounted by the new address)
    expect(await page.evaluate<string>("document.activeElement.labels?.[0]?.textContent ?? ''")).toBe('Sort');
    const titles = await page.locator('ul.books.grid h3').allTextContents();
    expect(titles[0]).toBe('Dear waves');

    // Add to cart without leaving the grid.
    await page.getByRole('button', { name: 'Add Dear waves to cart' }).click();
    await page.locator('.card-action .tag', { hasText: 'In your cart' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    const cart = await api('GET', '/api/user/getCartItems', { token: student.token });
    expect(cart.status).toBe(200);
    expect(JSON.stringify(cart.body)).toContain('Dear waves');
    await expectAccessible(page);
  });

  it('lays the grid in four or more columns on a desktop, each card one link', async () => {
    const { student } = await campusWithBooks(['One', 'Two']);
    const page = await web().newPage({ width: 1280, height: 800 });
    await logIn(page, student.user.emailAddress);
    await page.goto('/');
    await page.locator('ul.books.grid .card').first().waitFor();
    expect(await columns(page)).toBeGreaterThanOrEqual(4);
    await page.getByRole('link', { name: 'Two', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: /Two/ }).waitFor();
  });

  it('serves the main script compressed, as CloudFront does', async () => {
    const html = await (await fetch(web().url)).text();
    const script = /src="(\/assets\/index-[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    for (const encoding of ['br', 'gzip']) {
      const answer = await fetch(`${web().url}${script}`, { headers: { 'Accept-Encoding': encoding } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-encoding')).toBe(encoding);
      expect(answer.headers.get('vary')).toBe('Accept-Encoding');
      const length = Number(answer.headers.get('content-length'));
      expect(length).toBeLessThan(150_000);
    }
    const plain = await fetch(`${web().url}${script}`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
  });
});
