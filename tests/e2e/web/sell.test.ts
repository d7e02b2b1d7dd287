/**
 * Selling without surprises in a real browser (issue 32, item 4), on a phone and a desktop: an
 * empty price is an error on the price field and nothing is posted (never a $0 listing by
 * accident); "Give it away for free" posts 0 on purpose; a new error never stands beside the last
 * success line. Stored state is re-read over the API.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { expectAccessible, logIn, screenshot, webStackForFile } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';

const web = webStackForFile();

const VIEWPORTS = [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const;

type Posted = { name: string; price: number };
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
  it.each(VIEWPORTS)('never posts $0 by accident; free is a choice (%s)', async (name, viewport) => {
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
});
