/**
 * The web app without a mouse: a student logs in, searches, adds a book to the cart and checks out
 * with Tab, Enter and Space only (no click anywhere); and a throttled login shows the Retry-After wait.
 */
import { describe, expect, it } from 'vitest';
import { getBook } from '#lib/db/books.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { expectAccessible, listBook, screenshot, tabTo } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';
import { refreshCookieOf, tokenOf } from '#tests/helpers/web-session.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

describe('the web app with the keyboard only', () => {
  it('logs in, searches, adds a book to the cart and checks out with Tab, Enter and Space', async () => {
    const seller = await createConfirmedUser();
    const buyer = await createConfirmedUser();
    const book = await listBook(seller.token);
    const page = await web().newPage();
    await page.goto('/login');

    await tabTo(page, 'E-mail');
    await page.keyboard.type(buyer.user.emailAddress);
    await tabTo(page, 'Password');
    await page.keyboard.type(buyer.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: /Welcome/ }).waitFor();

    await tabTo(page, 'Search by title, course or ISBN');
    await page.keyboard.type(book.name);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 3, name: new RegExp(book.name) }).waitFor();

    await tabTo(page, `Add ${book.name} to cart`);
    await page.keyboard.press('Space');
    await page.getByText('In your cart').waitFor();
    const cart = await api('GET', '/api/user/getCartItems', { token: await tokenOf(page) });
    expect((cart.body as { data: { items: { id: string }[] } }).data.items.map((b) => b.id)).toEqual([
      book.id,
    ]);

    // Back up to the navigation (the focus stays where it was), whose cart link counts the book at
    // once (issue 32, item 1), and open the cart.
    await tabTo(page, 'Cart (1)', { back: true });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 3, name: new RegExp(book.name) }).waitFor();
    await tabTo(page, 'Check out');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Thank you for your order' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'checkout-keyboard');

    const stored = await getBook(book.id);
    expect(stored?.status).toBe(1);
    expect(stored?.buyerId).toBe(buyer.user.id);
  });

  it('shows how long to wait when the login answers 429 with Retry-After, and keeps no session', async () => {
    const student = await createConfirmedUser();
    // Ten failed attempts for the address: the next one is refused with 429 before any check.
    for (let i = 0; i < 10; i++) {
      const res = await api('POST', '/api/auth/login', {
        body: { emailAddress: student.user.emailAddress, password: 'not the password' },
      });
      expect(res.status).toBe(401);
    }
    const probe = await api('POST', '/api/auth/login', {
      body: { emailAddress: student.user.emailAddress, password: student.password },
    });
    expect(probe.status).toBe(429);
    const wait = Number(probe.headers.get('Retry-After'));
    expect(wait).toBeGreaterThan(0);

    const page = await web().newPage();
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(student.user.emailAddress);
    await page.getByLabel('Password', { exact: true }).fill(student.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Too many attempts' });
    await alert.waitFor();
    const shown = Number((await alert.textContent())?.match(/try again in (\d+) seconds/)?.[1]);
    // The page shows the header's seconds (a little less, as time passed between the two answers).
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThanOrEqual(wait);
    expect(await refreshCookieOf(page)).toBeUndefined();
    expect(new URL(page.url()).pathname).toBe('/login');
    await expectAccessible(page);
    await screenshot(page, 'login-429');
  });
});
