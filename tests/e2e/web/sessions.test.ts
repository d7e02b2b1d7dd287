/**
 * Staying signed in, in a real browser against the e2e tier's API: the refresh cookie opens a new
 * tab (an e-mailed link) signed in, a deep link returns there after login, logout ends the session,
 * and a reused refresh token signs out every session of that user in every browser.
 */
import { describe, expect, it } from 'vitest';
import { setPermissionType } from '#lib/db/users.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { expectAccessible, goByNav, logIn, submitLogIn } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';
import { ageRefreshFamily } from '#tests/helpers/stored.ts';
import { refreshCookieOf, refreshFrom } from '#tests/helpers/web-session.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

describe('staying signed in', () => {
  it('a page opened from an e-mail link (a new tab of the same browser) opens signed in', async () => {
    const student = await createConfirmedUser({ firstName: 'Tabby' });
    const page = await web().newPage();
    await logIn(page, student.user.emailAddress);
    // the link of an e-mail, opened in a new tab: no password asked
    const tab = await page.context().newPage();
    await tab.goto('/notifications');
    await tab.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    expect(new URL(tab.url()).pathname).toBe('/notifications');
    // and a typed address in the first tab (a full load) too; the home page waits for the
    // session instead of first listing every campus's books (the public listing is never asked)
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    const listed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/books/getAllBooks');
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Welcome, Tabby' }).waitFor();
    expect((await listed).status()).toBe(200);
    expect(asked).toContain('/api/books/getAllBooks');
    expect(asked.filter((p) => /^\/api\/books\/(getBooksNoToken|search\/public)/.test(p))).toEqual([]);
    // nothing of the session is in storage a script can read: only the hint that there was one
    expect(
      await tab.evaluate(() => ({ session: sessionStorage.length, local: Object.entries(localStorage) })),
    ).toEqual({ session: 0, local: [['cb_signed_in', '1']] });
  });

  it('a refresh that gets no answer (a page left mid-load, a dropped network) does not sign the student out', async () => {
    const student = await createConfirmedUser({ firstName: 'Hasty' });
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, student.user.emailAddress);
    // every refresh of the next load fails on the network: asked, then asked once more
    let dropped = 0;
    await page.route('**/api/auth/refresh', async (route) => {
      dropped += 1;
      await route.abort('connectionreset');
    });
    await page.goto('/cart');
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    expect(dropped).toBe(2);
    // the hint stays, so the next page asks again and is signed in
    expect(await page.evaluate(() => localStorage.getItem('cb_signed_in'))).toBe('1');
    await page.unroute('**/api/auth/refresh');
    await page.goto('/cart');
    await page.getByRole('heading', { level: 1, name: 'Cart' }).waitFor();
    // a refusal (401) still ends it: the hint goes
    await page.context().clearCookies();
    await page.goto('/cart');
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('cb_signed_in'))).toBeNull();
  });

  it('"Log out everywhere" in Settings ends the sessions of every device, this one included', async () => {
    const student = await createConfirmedUser();
    const phone = await web().newPage({ width: 390, height: 844 });
    const laptop = await web().newPage({ width: 1280, height: 800 });
    await logIn(phone, student.user.emailAddress);
    await logIn(laptop, student.user.emailAddress);
    const laptopCookie = await refreshCookieOf(laptop);
    expect(laptopCookie).toBeDefined();

    await phone.goto('/settings');
    const everywhere = phone.getByRole('button', { name: 'Log out everywhere' });
    await everywhere.waitFor();
    await expectAccessible(phone);
    phone.once('dialog', (dialog) => void dialog.accept());
    await everywhere.click();
    await phone.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    expect(await refreshCookieOf(phone)).toBeUndefined();
    // the other device: its refresh cookie and the token it logged in with no longer work
    const replay = await api('POST', '/api/auth/refresh', {
      headers: { 'x-csrf': '1', cookie: `cb_refresh=${laptopCookie?.value}` },
    });
    expect(replay.status).toBe(401);
    expect((await api('GET', '/api/user/getNotifications', { token: student.token })).status).toBe(401);
    await laptop.goto('/cart');
    await laptop.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
  });

  it('a deep link without a session asks to log in, then returns to that page', async () => {
    const student = await createConfirmedUser();
    const page = await web().newPage();
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await page.goto('/orders');
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/orders');
    // a browser that was never signed in has no session to ask for: no refresh call (and no 401)
    expect(asked).not.toContain('/api/auth/refresh');
    await submitLogIn(page, student.user.emailAddress, student.password);
    await page.getByRole('heading', { level: 1, name: 'Purchases and sales' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/orders');
  });

  it('a session the service ended (here a role change) says so on the login page, then returns to the page', async () => {
    const student = await createConfirmedUser();
    const page = await web().newPage();
    await logIn(page, student.user.emailAddress);
    // an owner makes the student an admin: a role change ends every refresh family of theirs
    expect(await setPermissionType(student.user.id, 1)).not.toBeNull();
    await page.goto('/orders');
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: 'Your session has expired. Log in again to continue.' })
      .waitFor();
    const at = new URL(page.url());
    expect([at.searchParams.get('expired'), at.searchParams.get('next')]).toEqual(['1', '/orders']);
    await expectAccessible(page);
    await submitLogIn(page, student.user.emailAddress, student.password);
    await page.getByRole('heading', { level: 1, name: 'Purchases and sales' }).waitFor();
    // signed in again, then out by choice: a later login page has no word of an ended session
    await goByNav(page, 'Log out', 'button');
    await page.goto('/cart');
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    expect(new URL(page.url()).searchParams.get('expired')).toBeNull();
    expect(await page.getByText('Your session has expired').count()).toBe(0);
  });

  it('logout ends the session: a new tab asks for the password again', async () => {
    const student = await createConfirmedUser();
    const page = await web().newPage();
    await logIn(page, student.user.emailAddress);
    const cookie = await refreshCookieOf(page);
    expect(cookie).toBeDefined();
    await goByNav(page, 'Log out', 'button');
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    expect(await refreshCookieOf(page)).toBeUndefined();
    expect(await page.evaluate(() => localStorage.getItem('cb_signed_in'))).toBeNull();
    // the family is gone on the server too, not only the cookie in this browser
    const replay = await api('POST', '/api/auth/refresh', {
      headers: { 'x-csrf': '1', cookie: `cb_refresh=${cookie?.value}` },
    });
    expect(replay.status).toBe(401);
    const tab = await page.context().newPage();
    await tab.goto('/cart');
    await tab.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
  });

  it('a reused refresh token logs every session of that user out', async () => {
    const student = await createConfirmedUser({ firstName: 'Reused' });
    const laptop = await web().newPage();
    await logIn(laptop, student.user.emailAddress);
    const phone = await web().newPage(); // another browser: its own login, its own family
    await logIn(phone, student.user.emailAddress);
    // a copy of the laptop's cookie is taken (say, by malware), then the laptop goes on: a new tab
    // and a reload each refresh it, so the copy is two generations old (beyond any grace)
    const stolen = await refreshCookieOf(laptop);
    const tab = await laptop.context().newPage();
    await tab.goto('/notifications');
    await tab.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    // the reload comes after the grace (the rotation dated back, as time would): it rotates again
    await ageRefreshFamily((await refreshCookieOf(laptop))?.value as string);
    await tab.reload();
    await tab.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    expect((await refreshCookieOf(laptop))?.value).not.toBe(stolen?.value);
    const replay = await api('POST', '/api/auth/refresh', {
      headers: { 'x-csrf': '1', cookie: `cb_refresh=${stolen?.value}` },
    });
    expect(replay.status).toBe(401);
    expect((replay.body as { data: { code: string } }).data.code).toBe('REFRESH_REUSED');
    // every session of the user is out: the next action in each tab and browser asks to log in
    for (const page of [laptop, tab, phone]) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Cart/ }).click();
      await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
      expect(new URL(page.url()).searchParams.get('next')).toBe('/cart');
    }
    expect((await refreshFrom(phone)).status).toBe(401);
    expect((await api('GET', '/api/user/getUserData', { token: student.token })).status).toBe(401);
  });
});
