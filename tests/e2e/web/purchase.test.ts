/**
 * The marketplace in a real browser (Chromium), against the e2e tier's running API: a student signs
 * up, confirms from the e-mailed token, logs in and sells a book; a second student finds it, buys it;
 * an admin confirms and sets it paid on the dashboard; the seller sees it sold. Every page visited
 * passes axe (no serious or critical violation) and is saved as a screenshot.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { getBook } from '#lib/db/books.ts';
import { createConfirmedUser, DEFAULT_PASSWORD, emailTokenIn, uniqueEmail } from '#tests/helpers/accounts.ts';
import { expectAccessible, goByNav, logIn, screenshot, submitSignUp } from '#tests/helpers/browser.ts';
import { api, waitForEmail } from '#tests/helpers/e2e.ts';
import { CONFIRMATION_SUBJECT } from '#tests/helpers/e2e-accounts.ts';
import { refreshCookieOf, tokenOf } from '#tests/helpers/web-session.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

describe('a purchase from sign-up to paid, in the browser', () => {
  const title = `Browser Calculus ${Date.now().toString(36)}`;
  const sellerEmail = uniqueEmail('seller');
  let seller: Page;

  it('a new student signs up, confirms with the e-mailed token and logs in', async () => {
    seller = await web().newPage();
    await seller.goto('/signup');
    await expectAccessible(seller);
    await screenshot(seller, 'signup');
    await submitSignUp(seller, sellerEmail, {
      firstName: 'Sam',
      lastName: 'Seller',
      campusMailbox: 'Box 12',
      paymentUsername: '@sam-sells',
    });
    await expectAccessible(seller);

    const token = emailTokenIn(await waitForEmail(sellerEmail, CONFIRMATION_SUBJECT));
    await seller.goto(`/confirm?token=${token}`);
    await expectAccessible(seller);
    await screenshot(seller, 'confirm');
    await seller.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await seller.getByRole('button', { name: 'Confirm my account' }).click();
    await seller.getByRole('heading', { name: 'Your account is confirmed' }).waitFor();
    expect(new URL(seller.url()).pathname).toBe('/email-confirmed');
    await expectAccessible(seller);

    // Confirming took the password, so the student is logged in at once: no second login.
    await seller.getByText('Welcome to Campus Books, Sam. You are logged in.').waitFor();
    await seller.getByRole('link', { name: 'Sell', exact: true }).waitFor();
    await seller.reload();
    await seller.getByRole('link', { name: 'Sell', exact: true }).waitFor();
    // The access token lives in memory only; the session is kept by the HttpOnly refresh cookie.
    // (localStorage holds only the hint that this browser has a session, no token: web/src/session.ts)
    expect(await seller.evaluate(() => Object.entries(localStorage))).toEqual([['cb_signed_in', '1']]);
    expect(await seller.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await refreshCookieOf(seller)).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(await seller.evaluate('document.cookie')).not.toContain('cb_refresh');
    await expectAccessible(seller);
  });

  let bookId = '';
  it('the student posts a book', async () => {
    await seller.getByRole('link', { name: 'Sell', exact: true }).click();
    await seller.getByLabel('Title').fill(title);
    await seller.getByLabel('Edition').fill('3');
    await seller.getByLabel('Course (e.g. CSC 171)').fill('MTH 161');
    await seller.getByLabel('Price in dollars').fill('42.50');
    // the grades are named in words, here and on every page that shows a book
    expect(await seller.getByLabel('Condition').locator('option').allInnerTexts()).toEqual([
      'New',
      'Like new',
      'Very good',
      'Good',
      'Acceptable',
    ]);
    await seller.getByLabel('Condition').selectOption({ label: 'Very good' });
    await seller.getByLabel('Comments (optional)').fill('Some highlighting in chapter 2.');
    await expectAccessible(seller);
    await screenshot(seller, 'sell');
    await seller.getByRole('button', { name: 'List the book' }).click();
    await seller
      .getByRole('status')
      .filter({ hasText: `“${title}” is listed` })
      .waitFor();

    await goByNav(seller, 'My listings');
    await seller.getByRole('heading', { name: new RegExp(title) }).waitFor();
    // one's own listing says nothing of who sells it
    expect(await seller.getByText(`$42.50 · MTH 161 · Very good`, { exact: true }).count()).toBe(1);
    const posts = await api('GET', '/api/books/getUsersPosts', { token: await tokenOf(seller) });
    const [posted] = (posts.body as { data: { id: string; name: string }[] }).data;
    expect(posted?.name).toBe(title);
    bookId = posted?.id ?? '';
    const stored = await getBook(bookId);
    expect(stored).toMatchObject({ name: title, priceCents: 4250, condition: 'very-good', status: 0 });
    await expectAccessible(seller);
    await screenshot(seller, 'listings');
  });

  it('a second student finds it by search, adds it to the cart and checks out', async () => {
    const buyer = await createConfirmedUser();
    const page = await web().newPage();
    await logIn(page, buyer.user.emailAddress);
    // the book's page says when it was listed, short, with the exact time on hover
    await page.goto(`/books/${bookId}`);
    const listed = page.locator('dt:text-is("Listed") + dd time');
    expect(await listed.innerText()).toMatch(/^(Just now|\d+ min ago)$/);
    expect(await listed.getAttribute('title')).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/);
    await page.goto('/');
    await page.getByLabel('Search by title, course or ISBN').fill(title);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('heading', { level: 3, name: new RegExp(title) }).waitFor();
    await page.getByRole('article', { name: title }).getByText('Very good').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'search');
    await page.getByRole('button', { name: `Add ${title} to cart` }).click();
    await page.getByText('In your cart').waitFor();

    await page.getByRole('link', { name: 'Cart' }).click();
    await page.getByRole('heading', { level: 3, name: new RegExp(title) }).waitFor();
    // the row shows the book's picture (no photo: the card's generated cover, small), its title
    // opens the book, and only Check out is a filled button (Remove and Empty the cart are quieter)
    const row = page.getByRole('article', { name: new RegExp(title) });
    const cover = row.locator('.cover.thumb');
    expect(await cover.innerText()).toContain('MTH 161');
    expect(await cover.evaluate((el) => [el.clientWidth, el.clientHeight].join('x'))).toBe('96x96');
    expect(await row.getByRole('link', { name: title }).getAttribute('href')).toBe(`/books/${bookId}`);
    const fill = (name: string) =>
      page
        .getByRole('button', { name })
        .evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).backgroundColor);
    expect(await fill('Check out')).not.toBe('rgba(0, 0, 0, 0)');
    expect([await fill(`Remove ${title}`), await fill('Empty the cart')]).toEqual([
      'rgba(0, 0, 0, 0)',
      'rgba(0, 0, 0, 0)',
    ]);
    await expectAccessible(page);
    await screenshot(page, 'cart');
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.getByRole('heading', { name: 'Thank you for your order' }).waitFor();
    // The amounts come from the service: 42.50 + 5 % fee.
    await page.getByText('$44.63').waitFor();
    await expectAccessible(page);

    const stored = await getBook(bookId);
    expect(stored?.status).toBe(1);
    expect(stored?.buyerId).toBe(buyer.user.id);

    // The next step is the hand-over: the page links to this order's page, where it is agreed.
    const orders = await api('GET', '/api/user/getOrders', { token: buyer.token });
    expect(orders.status).toBe(200);
    const [order] = (orders.body as { data: { id: string; books: { id: string }[] }[] }).data;
    expect(order?.books.map((b) => b.id)).toEqual([bookId]);
    await page.getByRole('link', { name: 'Agree on the hand-over' }).click();
    await page.waitForURL(`**/orders/${order?.id}`);
    await page.getByRole('heading', { level: 1, name: 'Order' }).waitFor();
    await page.getByRole('heading', { name: new RegExp(title) }).waitFor();
    await page.getByText(/\$42\.50 · MTH 161 · Very good · sold by /).waitFor();
    // with its picture, as in the cart (no photo: its card's cover, small)
    expect(
      await page
        .getByRole('article', { name: new RegExp(title) })
        .locator('.cover.thumb')
        .innerText(),
    ).toContain('MTH 161');
    // the same date words on every page, whatever the browser's language (web/src/ui/when.ts)
    await page.getByText(/^Placed [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/).waitFor();

    // the title opens the book, which says it is bought and leads back to the order; it offers
    // writing to the seller about the hand-over, and no report (only a listed book can be reported)
    await page.getByRole('link', { name: title }).click();
    await page.waitForURL(`**/books/${bookId}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByText('You bought this book:').waitFor();
    expect(await page.getByText('Report this listing').count()).toBe(0);
    expect(await page.getByText('Ask the seller').count()).toBe(0);
    await page.getByText('Write to ').waitFor();
    await page.getByRole('link', { name: 'see your order and its hand-over' }).click();
    await page.waitForURL(`**/orders/${order?.id}`);
    await page.getByRole('heading', { level: 1, name: 'Order' }).waitFor();
  });

  it('an admin confirms the book and sets it paid on the dashboard', async () => {
    const admin = await createConfirmedUser({ permissionType: 1 });
    const page = await web().newPage();
    await logIn(page, admin.user.emailAddress);
    await goByNav(page, 'Dashboard');
    await page.getByRole('button', { name: `Confirm ${title}` }).click();
    await page.getByRole('button', { name: `Set ${title} paid` }).waitFor();
    expect((await getBook(bookId))?.status).toBe(2);
    await expectAccessible(page);
    await screenshot(page, 'dashboard');
    await page.getByRole('button', { name: `Set ${title} paid` }).click();
    await page.getByRole('button', { name: `Set ${title} paid` }).waitFor({ state: 'detached' });
    await expect.poll(async () => (await getBook(bookId))?.status).toBe(3);
  });

  it('the seller sees the book sold, delivered and paid', async () => {
    await goByNav(seller, 'Orders');
    const sold = seller.getByRole('region', { name: 'Books I sold' });
    await sold.getByRole('heading', { name: new RegExp(title) }).waitFor();
    // a seller who has bought nothing meets the sales first, then one "No orders yet." (not two empty lists)
    const sections = seller.locator('main section[aria-labelledby]');
    await expect
      .poll(() => sections.evaluateAll((s) => s.map((e) => e.getAttribute('aria-labelledby'))))
      .toEqual(['sold-h', 'orders-h']);
    await seller.getByRole('region', { name: 'My orders' }).getByText('No orders yet.').waitFor();
    expect(await seller.getByRole('region', { name: 'Books I bought' }).count()).toBe(0);
    // its steps in the order page's words, one a line (they ran together on one line: "1. Bought2. ...")
    const steps = sold.getByRole('list', { name: 'Progress' }).first().getByRole('listitem');
    await expect
      .poll(() => steps.allTextContents())
      .toEqual(['Bought', 'Checked and charged', 'Handed over and paid']);
    const tops = await Promise.all([0, 1, 2].map(async (i) => (await steps.nth(i).boundingBox())?.y ?? 0));
    expect(tops[1]).toBeGreaterThan(tops[0] ?? 0);
    expect(tops[2]).toBeGreaterThan(tops[1] ?? 0);
    expect(await steps.nth(2).getAttribute('aria-current')).toBe('step');
    expect(await sold.getByText(/^Status: /).count()).toBe(0);
    expect(await sold.getByText(/sold by/).count()).toBe(0);
    await expectAccessible(seller);
    await screenshot(seller, 'orders');

    // the sold book's page tells its seller so, with the sale's page, instead of "edit it"
    await seller.goto(`/books/${bookId}`);
    await seller.getByText('You sold this book:').waitFor();
    expect(await seller.getByText('Your book: edit it').count()).toBe(0);
    const sale = await seller
      .getByRole('link', { name: 'see the sale and its hand-over' })
      .getAttribute('href');
    expect(sale).toMatch(/^\/orders\/[0-9A-Z]{26}$/);

    // the sections' order depends on both lists: while the sales are still on their way, nothing
    // is shown but one loading line, so the orders do not stand first and then move down
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await seller.route('**/api/user/getSoldBooks*', async (route) => {
      await held;
      await route.continue();
    });
    const ordersRead = seller.waitForResponse('**/api/user/getOrders*');
    await seller.goto('/orders');
    await ordersRead;
    await seller.getByText('Loading your purchases and sales…').waitFor();
    expect(await seller.getByRole('region', { name: 'My orders' }).count()).toBe(0);
    release();
    await expect
      .poll(() => sections.evaluateAll((s) => s.map((e) => e.getAttribute('aria-labelledby'))))
      .toEqual(['sold-h', 'orders-h']);
    await seller.unroute('**/api/user/getSoldBooks*');
  });
});
