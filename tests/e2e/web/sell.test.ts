/**
 * Selling without surprises in a real browser (issue 32, item 4), on a phone and a desktop: an
 * empty price is an error on the price field and nothing is posted (never a $0 listing by
 * accident); "Give it away for free" posts 0 on purpose; a new error never stands beside the last
 * success line. Stored state is re-read over the API.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ALL_CAMPUSES } from '#lib/db/keys.ts';
import { recordSale } from '#lib/db/sale-prices.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { expectAccessible, logIn, screenshot, webStackForFile } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';

const web = webStackForFile();

const VIEWPORTS = [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const;

type Posted = {
  name: string;
  price: number;
  author?: string;
  edition: number;
  course: string;
  ISBN: string | null;
};
const postsOf = async (token: string): Promise<Posted[]> => {
  const res = await api('GET', '/api/books/getUsersPosts', { token });
  expect(res.status).toBe(200);
  return (res.body as { data: Posted[] }).data;
};

const fillBook = async (page: Page, title: string) => {
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Course (e.g. CSC 171)').fill('CSC 171');
};

describe('the sell page', () => {
  it.each(VIEWPORTS)('never posts free by accident; free is a choice (%s)', async (name, viewport) => {
    const seller = await createConfirmedUser();
    const page = await web().newPage(viewport);
    await logIn(page, seller.user.emailAddress);
    await page.goto('/sell');
    const tag = Math.random().toString(36).slice(2, 8);

    // An empty price: a plain error on the price field, nothing posted.
    await fillBook(page, `Priceless ${tag}`);
    await page.getByRole('button', { name: 'List the book' }).click();
    const price = page.getByLabel('Price in dollars');
    await expect.poll(() => price.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await price.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/Enter a price in dollars/);
    await expectAccessible(page);
    await screenshot(page, `sell-price-required-${name}`);
    expect(await postsOf(seller.token)).toEqual([]);

    // A price: listed at that price, with a success line.
    await price.fill('12.5');
    await page.getByRole('button', { name: 'List the book' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Priceless ${tag}` })
      .waitFor();
    expect((await postsOf(seller.token)).map((b) => [b.name, b.price])).toEqual([[`Priceless ${tag}`, 12.5]]);

    // The next attempt fails (empty price again): the last success line is gone beside the error.
    await fillBook(page, `Second ${tag}`);
    await page.getByRole('button', { name: 'List the book' }).click();
    await expect.poll(() => price.getAttribute('aria-invalid')).toBe('true');
    expect(
      await page
        .getByRole('status')
        .filter({ hasText: `Priceless ${tag}` })
        .count(),
    ).toBe(0);
    expect(await postsOf(seller.token)).toHaveLength(1);

    // Free on purpose: the price field goes away and 0 is posted.
    await page.getByLabel('Give it away for free').check();
    expect(await page.getByLabel('Price in dollars').count()).toBe(0);
    await page.getByRole('button', { name: 'List the book' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Second ${tag}` })
      .waitFor();
    const stored = await postsOf(seller.token);
    expect(stored.find((b) => b.name === `Second ${tag}`)?.price).toBe(0);
    await expectAccessible(page);
  });

  it('fills the form from a typed ISBN with what copies sold for, and from an empty search', async () => {
    // Biochemistry in the ISBN stand-in (scripts/local/isbn-fixtures.ts), edition "7th ed.", an ISBN no
    // other test sells (the e2e table is shared, and the every-campus hint counts every test's sales);
    // three completed sales on some campus give the every-campus hint.
    const isbn13 = '9781429229364';
    for (const [i, cents] of [2000, 3000, 4000].entries())
      await recordSale(isbn13, ALL_CAMPUSES, {
        at: new Date(Date.now() - i * 1000).toISOString(),
        bookId: `e2e-sale-${i}`,
        cents,
      });
    const seller = await createConfirmedUser();
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, seller.user.emailAddress);

    // "Sell yours" from an empty search for a course carries the course in the address.
    await page.goto(`/sell?course=${encodeURIComponent('PHYS 101')}`);
    expect(await page.getByLabel('Course (e.g. CSC 171)').inputValue()).toBe('PHYS 101');

    await page.getByLabel('ISBN (optional)').fill('978-1-4292-2936-4');
    const note = page.getByRole('status').filter({ hasText: 'Found “Biochemistry”' });
    await note.waitFor();
    expect(await note.textContent()).toContain(
      '3 copies sold on all campuses for $20.00–$40.00 (median $30.00).',
    );
    expect(await page.getByLabel('Title').inputValue()).toBe('Biochemistry');
    expect(await page.getByLabel('Author (optional)').inputValue()).toBe(
      'Jeremy M. Berg, John L. Tymoczko, Lubert Stryer',
    );
    expect(await page.getByLabel('Edition').inputValue()).toBe('7');
    await expectAccessible(page);
    await screenshot(page, 'sell-isbn-lookup-phone');
    await page.getByLabel('Price in dollars').fill('28');
    await page.getByRole('button', { name: 'List the book' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Biochemistry' })
      .filter({ hasText: 'is listed' })
      .waitFor();
    expect(await postsOf(seller.token)).toMatchObject([
      {
        name: 'Biochemistry',
        author: 'Jeremy M. Berg, John L. Tymoczko, Lubert Stryer',
        edition: 7,
        course: 'PHYS 101',
        price: 28,
        ISBN: isbn13,
      },
    ]);

    // A title typed first is kept; an ISBN nobody knows says so and fills nothing.
    await page.getByLabel('Title').fill('My own title');
    await page.getByLabel('ISBN (optional)').fill('9781429229364');
    await page.getByRole('status').filter({ hasText: 'Found' }).waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe('My own title');
    await page.getByLabel('ISBN (optional)').fill('9780000000002');
    await page.getByRole('status').filter({ hasText: 'No book data for this ISBN' }).waitFor();
    expect(await postsOf(seller.token)).toHaveLength(1);
  });
});
