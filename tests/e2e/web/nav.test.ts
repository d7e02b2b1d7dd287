/**
 * The main navigation's counts and reach: the Cart badge counts only the books still there to buy.
 */
import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { buyOverApi, cartOfTwoBooks, expectAccessible, listBook, logIn } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

const PHONE = { width: 390, height: 844 };

describe('the Cart badge', () => {
  it('stops counting a carted book once someone else bought it (phone)', async () => {
    const {
      buyer,
      rival,
      books: [kept, taken],
    } = await cartOfTwoBooks();
    const page = await web().newPage(PHONE);
    await logIn(page, buyer.user.emailAddress);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Cart (2)', exact: true }).waitFor();

    await buyOverApi(rival.token, taken.id);
    await nav.getByRole('link', { name: 'Cart (2)', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Cart' }).waitFor();
    await page.getByText('No longer available', { exact: true }).waitFor();
    await nav.getByRole('link', { name: 'Cart (1)', exact: true }).waitFor();
    expect(await nav.locator('.badge').allTextContents()).toEqual(['1']);
    // the cart itself still holds both: the sold one leaves it at checkout
    const cart = await api('GET', '/api/user/getCartItems', { token: buyer.token });
    const items = (cart.body as { data: { items: { id: string; available: boolean }[] } }).data.items;
    expect(items.map((b) => [b.id, b.available]).sort()).toEqual(
      [
        [kept.id, true],
        [taken.id, false],
      ].sort(),
    );
    await expectAccessible(page);
  });
});

describe('the Notifications badge', () => {
  it('drops the moment a notification is opened, before the service answers; a refused mark puts it back (phone)', async () => {
    const [seller, buyer] = await Promise.all([createConfirmedUser(), createConfirmedUser()]);
    const first = await listBook(seller.token);
    const second = await listBook(seller.token);
    await buyOverApi(buyer.token, first.id);
    await buyOverApi(buyer.token, second.id);
    const unread = async () => {
      const res = await api('GET', '/api/user/getNotifications', { token: seller.token });
      expect(res.status).toBe(200);
      return (res.body as { data: { read: boolean }[] }).data.filter((n) => !n.read).length;
    };
    await expect.poll(unread, { timeout: 15_000 }).toBe(2);

    const page = await web().newPage(PHONE);
    await logIn(page, seller.user.emailAddress);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Notifications (2 unread)', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();

    // the service's answer is held: the badge has dropped already, and nothing is stored yet
    const MARK = '**/api/user/markNotificationsRead';
    let held: Route | undefined;
    await page.route(MARK, (route) => {
      held = route;
    });
    // opening one leaves the page, and the nav reads the list again on every navigation: that read,
    // answered while the mark is held (the service still has both unread), keeps the badge down
    const reread = page.waitForResponse((r) => r.url().includes('/api/user/getNotifications'));
    await page.getByRole('link', { name: new RegExp(first.name) }).click();
    await expect.poll(() => held !== undefined, { timeout: 10_000 }).toBe(true);
    expect((await reread).status()).toBe(200);
    await nav.getByRole('link', { name: 'Notifications (1 unread)', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Notifications (2 unread)', exact: true }).count()).toBe(0);
    expect(await unread()).toBe(2);
    await held?.continue();
    // the held call goes on to a function that may start cold on a loaded machine: not within the
    // poll's default second
    await expect.poll(unread, { timeout: 10_000 }).toBe(1);
    await page.unroute(MARK);

    // a refused mark: the notification is unread again, and the page says why
    await page.route(MARK, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        headers: { 'retry-after': '1' },
        body: JSON.stringify({
          data: { error: 'The service is busy. Try again in a moment.', code: 'SERVICE_UNAVAILABLE' },
          time: new Date().toISOString(),
        }),
      }),
    );
    await nav.getByRole('link', { name: 'Notifications (1 unread)', exact: true }).click();
    await page.getByRole('button', { name: 'Mark as read' }).click();
    await page.getByText('The service is busy. Try again in a moment.').waitFor();
    await nav.getByRole('link', { name: 'Notifications (1 unread)', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Mark as read' }).count()).toBe(1);
    expect(await unread()).toBe(1);
    // a quiet button beside the notification's link, not a filled one under every notification
    expect(
      await page
        .getByRole('button', { name: 'Mark as read' })
        .evaluate((b) => b.ownerDocument.defaultView?.getComputedStyle(b).backgroundColor),
    ).toBe('rgba(0, 0, 0, 0)');
    await expectAccessible(page);

    // an accepted mark reads the list again once, not once for the page and once for the mark
    await page.unroute(MARK);
    const reads: number[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/user/getNotifications')) reads.push(r.status());
    });
    const marked = page.waitForResponse((r) => r.url().includes('/api/user/markNotificationsRead'));
    await page.getByRole('button', { name: 'Mark as read' }).click();
    expect((await marked).status()).toBe(200);
    await expect.poll(unread, { timeout: 10_000 }).toBe(0);
    await expect.poll(() => reads.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(500);
    expect(reads.filter((status) => status === 200)).toHaveLength(1);
  });
});
