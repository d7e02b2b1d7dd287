/**
 * Browsing with a campus, filters and sort in the browser (API.md, Additions: "Campus scoping" and
 * "Browsing: one book, filters, sort"): a student sees their campus by default and every campus on
 * asking; a condition and a price range narrow the listing; a price sort reads ascending across
 * "More books" pages. Each campus is fresh, so the listings hold only this file's books.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { getBook } from '#lib/db/books.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import { expectAccessible, logIn, screenshot } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

const letters = (n: number) => Array.from(randomBytes(n), (b) => String.fromCharCode(97 + (b % 26))).join('');

/** A campus nobody else uses, and a student there. */
const freshCampus = () => `c${randomBytes(5).toString('hex')}.edu`;
const studentAt = (campus: string) =>
  createConfirmedUser({ emailAddress: `s-${randomBytes(5).toString('hex')}@${campus}` });

interface Listed {
  id: string;
  name: string;
}

/** Posts a book over the API; returns its id and title. */
async function post(
  token: string,
  fields: { name: string; price: number; condition: string },
): Promise<Listed> {
  const res = await api('POST', '/api/books/postBook', { token, body: makeBookBody(fields) });
  expect(res.status).toBe(201);
  return { id: (res.body as { data: { id: string } }).data.id, name: fields.name };
}

/** The titles of the books an API page lists. */
async function namesFromApi(path: string, token?: string): Promise<string[]> {
  const res = await api('GET', path, token ? { token } : {});
  expect(res.status).toBe(200);
  return (res.body as { data: { name: string }[] }).data.map((b) => b.name);
}

/** The titles the page shows, in order, once its heading and `expected` first title are there. */
async function shownNames(page: Page, heading: RegExp): Promise<string[]> {
  await page.getByRole('heading', { level: 2, name: heading }).waitFor();
  await page.locator('ul.books h3').first().waitFor();
  const titles = await page.locator('ul.books h3').allTextContents();
  return titles.map((t) => t.replace(/\s*\(edition \d+\)\s*$/, '').trim());
}

/** Waits until the list has loaded (not busy) and shows exactly `count` books. */
async function waitForCount(page: Page, count: number): Promise<void> {
  const list = page.locator('ul.books[aria-busy="false"]');
  await expect
    .poll(async () => ((await list.count()) ? list.locator('h3').count() : -1), { timeout: 15_000 })
    .toBe(count);
}

/** Presses "More books" until there is none (a page may hold fewer books than asked while there are more, API.md). */
async function loadEveryPage(page: Page): Promise<void> {
  await page.locator('ul.books[aria-busy="false"]').waitFor();
  const more = page.getByRole('button', { name: 'More books' });
  for (let pages = 1; (await more.count()) > 0; pages++) {
    expect(pages, 'pages of up to 23 books').toBeLessThan(5);
    await more.click();
    await page.locator('ul.books[aria-busy="false"]').waitFor();
  }
}

describe('browsing by campus, condition, price and order', () => {
  it('shows a student their campus by default, and every campus when asked', async () => {
    const [campusA, campusB] = [freshCampus(), freshCampus()];
    const word = `Zq${letters(8)}`;
    const [sellerA, sellerB, student] = await Promise.all([
      studentAt(campusA),
      studentAt(campusB),
      studentAt(campusA),
    ]);
    const bookA = await post(sellerA.token, { name: `${word} Optics`, price: 20, condition: 'good' });
    const bookB = await post(sellerB.token, { name: `${word} Waves`, price: 21, condition: 'good' });
    const search = `/api/books/search/${word}`;
    await expect
      .poll(() => namesFromApi(`${search}?campus=all`, student.token), { timeout: 15_000 })
      .toHaveLength(2);

    const page = await web().newPage();
    await logIn(page, student.user.emailAddress);
    await page.goto(`/?q=${word}`);
    const mine = await shownNames(page, new RegExp(`at ${campusA.replace('.', '\\.')}$`));
    expect(mine).toEqual([bookA.name]);
    expect(mine).toEqual(await namesFromApi(search, student.token));
    expect(await page.getByLabel('Campus').inputValue()).toBe('');

    // a choice applies at once (no button) and is kept in the address
    await page.getByLabel('Campus').selectOption({ label: 'All campuses' });
    await waitForCount(page, 2);
    const all = await shownNames(page, /at all campuses$/);
    expect(new Set(all)).toEqual(new Set([bookA.name, bookB.name]));
    expect(all).toEqual(await namesFromApi(`${search}?campus=all`, student.token));
    expect(new URL(page.url()).searchParams.get('campus')).toBe('all');
    expect((await getBook(bookB.id))?.campus).toBe(campusB);
    await expectAccessible(page);
  });

  it('narrows the listing by condition, then by a price range in dollars', async () => {
    const campus = freshCampus();
    const [seller, student] = await Promise.all([studentAt(campus), studentAt(campus)]);
    const tag = letters(6);
    const books = [
      await post(seller.token, { name: `New cheap ${tag}`, price: 12, condition: 'new' }),
      await post(seller.token, { name: `Good mid ${tag}`, price: 25.5, condition: 'good' }),
      await post(seller.token, { name: `Worn ${tag}`, price: 8, condition: 'acceptable' }),
      await post(seller.token, { name: `Good dear ${tag}`, price: 40, condition: 'Very Good' }),
      await post(seller.token, { name: `Good dearer ${tag}`, price: 41, condition: 'good' }),
    ];
    const page = await web().newPage();
    await logIn(page, student.user.emailAddress);
    await waitForCount(page, books.length);

    await page.getByLabel('Condition').selectOption({ label: 'Good' });
    await waitForCount(page, 2);
    const good = await shownNames(page, /^Newest books/);
    expect(good).toEqual(await namesFromApi('/api/books/getAllBooks?condition=good', student.token));
    for (const b of books.filter((x) => good.includes(x.name)))
      expect((await getBook(b.id))?.condition).toBe('good');
    expect(new Set(good)).toEqual(new Set([`Good mid ${tag}`, `Good dearer ${tag}`]));

    await page.getByLabel('Lowest price in dollars').fill('20');
    await page.getByLabel('Highest price in dollars').fill('30.50');
    // a typed price applies with Enter (or on leaving its field)
    await page.getByLabel('Highest price in dollars').press('Enter');
    await waitForCount(page, 1);
    const ranged = await shownNames(page, /^Newest books/);
    expect(ranged).toEqual(
      await namesFromApi('/api/books/getAllBooks?condition=good&minPrice=20&maxPrice=30.50', student.token),
    );
    expect(ranged).toEqual([`Good mid ${tag}`]);
    const stored = await getBook(books[1]?.id ?? '');
    expect(stored?.priceCents).toBe(2550);
    expect(stored?.condition).toBe('good');
    const url = new URL(page.url()).searchParams;
    expect([url.get('condition'), url.get('minPrice'), url.get('maxPrice')]).toEqual(['good', '20', '30.50']);
    await expectAccessible(page);
    await screenshot(page, 'browse-filters');
  });

  it('sorts the listing by price, lowest first, across "More books" pages', async () => {
    const campus = freshCampus();
    const [seller, student] = await Promise.all([studentAt(campus), studentAt(campus)]);
    const tag = letters(6);
    // 23 books (more than one page of 20), listed in an order that is not the price order.
    const prices = Array.from({ length: 23 }, (_, i) => ((i * 7) % 23) + 1 + (i % 3) / 4);
    const listed: Listed[] = [];
    for (const [i, price] of prices.entries())
      listed.push(await post(seller.token, { name: `Priced ${tag} ${i}`, price, condition: 'good' }));

    // The price order is indexed by the stream consumer: wait until it holds every book.
    await expect
      .poll(() => namesFromApi('/api/books/getAllBooks?sort=price-asc&limit=100', student.token), {
        timeout: 30_000,
      })
      .toHaveLength(listed.length);
    const page = await web().newPage();
    await logIn(page, student.user.emailAddress);
    await page.getByLabel('Sort').selectOption({ label: 'Price, lowest first' });
    await page.waitForURL(/sort=price-asc/);
    await loadEveryPage(page);
    await waitForCount(page, listed.length);
    const shown = await shownNames(page, /^Books at/);
    expect(new Set(shown).size).toBe(listed.length);

    const cents: number[] = [];
    for (const name of shown) {
      const book = listed.find((b) => b.name === name);
      cents.push((await getBook(book?.id ?? ''))?.priceCents ?? -1);
    }
    expect(cents).toEqual([...cents].sort((a, b) => a - b));
    expect(cents[0]).toBe(100);
    const first = await namesFromApi('/api/books/getAllBooks?sort=price-asc&limit=20', student.token);
    expect(shown.slice(0, 20)).toEqual(first);
  });

  it('shows every loaded page again at once on Back from a book, then refreshes them', async () => {
    const campus = freshCampus();
    const [seller, student] = await Promise.all([studentAt(campus), studentAt(campus)]);
    const tag = letters(6);
    const listed: Listed[] = [];
    for (let i = 0; i < 21; i++)
      listed.push(await post(seller.token, { name: `Cached ${tag} ${i}`, price: 10 + i, condition: 'good' }));
    await expect
      .poll(() => namesFromApi('/api/books/getAllBooks?limit=100', student.token), { timeout: 30_000 })
      .toHaveLength(listed.length);
    const page = await web().newPage();
    await logIn(page, student.user.emailAddress);
    await loadEveryPage(page);
    await waitForCount(page, listed.length);
    const before = await shownNames(page, /^Newest books at/);

    // From now on the listing answers late: what Back shows first comes from the cache.
    let asked = 0;
    await page.route('**/api/books/getAllBooks**', async (route) => {
      asked++;
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    const last = listed[0]?.name ?? '';
    await page.getByRole('link', { name: last, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: last }).waitFor();
    await page.goBack();
    await page.locator('ul.books[aria-busy="true"]').waitFor();
    expect(await shownNames(page, /^Newest books at/)).toEqual(before);
    // ...and the loaded pages are read again behind it.
    await waitForCount(page, listed.length);
    expect(asked).toBeGreaterThanOrEqual(1);
    expect(await shownNames(page, /^Newest books at/)).toEqual(before);
    await page.unroute('**/api/books/getAllBooks**');
  });

  it('sorts search results by price, highest first', async () => {
    const campus = freshCampus();
    const [seller, student] = await Promise.all([studentAt(campus), studentAt(campus)]);
    const tag = letters(8);
    const prices = [14, 52.25, 7.5, 33, 21];
    const listed: Listed[] = [];
    for (const [i, price] of prices.entries())
      listed.push(await post(seller.token, { name: `Sorted ${tag} ${i}`, price, condition: 'good' }));
    // search entries are written by the stream consumer: wait until the search holds every book
    await expect
      .poll(() => namesFromApi(`/api/books/search/${tag}?sort=price-desc`, student.token), {
        timeout: 30_000,
      })
      .toHaveLength(listed.length);
    const page = await web().newPage();
    await logIn(page, student.user.emailAddress);
    await page.getByLabel('Search by title, course or ISBN').fill(tag);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(new RegExp(`q=${tag}`));
    await page.getByLabel('Sort', { exact: true }).selectOption({ label: 'Price, highest first' });
    await page.waitForURL(/sort=price-desc/);
    await waitForCount(page, listed.length);
    const shown = await shownNames(page, /^Results for/);
    const cents: number[] = [];
    for (const name of shown) {
      const book = listed.find((b) => b.name === name);
      cents.push((await getBook(book?.id ?? ''))?.priceCents ?? -1);
    }
    expect(cents).toEqual([5225, 3300, 2100, 1400, 750]);
    expect(shown).toEqual(await namesFromApi(`/api/books/search/${tag}?sort=price-desc`, student.token));
  });
});
