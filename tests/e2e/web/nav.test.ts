/**
 * The main navigation's counts and reach: the Cart badge counts only the books still there to buy.
 */
import { describe, expect, it } from 'vitest';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { buyOverApi, expectAccessible, listBook, logIn, webStackForFile } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';

const web = webStackForFile();

const PHONE = { width: 390, height: 844 };

describe('the Cart badge', () => {
  it('stops counting a carted book once someone else bought it (phone)', async () => {
    const [seller, buyer, rival] = await Promise.all([
      createConfirmedUser(),
      createConfirmedUser(),
      createConfirmedUser(),
    ]);
    const kept = await listBook(seller.token);
    const taken = await listBook(seller.token);
    for (const b of [kept, taken])
      expect(
        (await api('POST', '/api/user/addToCart', { token: buyer.token, body: { bookId: b.id } })).status,
      ).toBe(200);
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
