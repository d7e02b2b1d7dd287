/**
 * The web app's pages in a real browser, against the e2e tier's API: a role-0 user is kept out of
 * the dashboard, a 400's field errors appear beside their fields, an expired session goes to login
 * and back, a checkout that lost the race names the taken book, and every page passes axe and fits a 390 x 844 phone screen.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CartContents } from '#lib/cart/schemas.ts';
import { getBook } from '#lib/db/books.ts';
import { getUser } from '#lib/db/users.ts';
import { createConfirmedUser, type TestAccount } from '#tests/helpers/accounts.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import {
  expectAccessible,
  listBook as listBookAs,
  logIn,
  screenshot,
  signedIn,
  submitLogIn,
} from '#tests/helpers/browser.ts';
import { api, postBookOverHttp, requestOverHttp, uniqueTag } from '#tests/helpers/e2e.ts';
import { expectEnvelope } from '#tests/helpers/schema.ts';
import { tokenOf } from '#tests/helpers/web-session.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();
let seller: TestAccount;

beforeAll(async () => {
  seller = await createConfirmedUser();
});

const listBook = () => listBookAs(seller.token);

describe('the web app in the browser', () => {
  it('keeps a role-0 user out of the dashboard: no link, and the page refuses', async () => {
    const { account: student, page } = await signedIn(web());
    expect(await page.getByRole('link', { name: 'Dashboard', includeHidden: true }).count()).toBe(0);
    await page.goto('/dashboard');
    await page.getByRole('alert').filter({ hasText: 'The dashboard is for administrators' }).waitFor();
    expect(await page.getByRole('button', { name: /^Confirm / }).count()).toBe(0);
    expect((await getUser(student.user.id))?.permissionType).toBe(0);
  });

  it('shows the field errors of a 400 next to their fields, and lists nothing', async () => {
    const page = await web().newPage();
    await logIn(page, seller.user.emailAddress);
    await page.goto('/sell');
    await page.getByLabel('Title').fill('A fine book');
    await page.getByLabel('Course (e.g. CSC 171)').fill('CSC 171');
    await page.getByLabel('Price in dollars').fill('20000');
    await page.getByLabel('ISBN (optional)').fill('0-306-40615-3');
    await page.getByRole('button', { name: 'List the book' }).click();
    await page.locator('.error[role="alert"]').waitFor();
    const said = await page.locator('.error[role="alert"]').textContent();
    const price = page.getByLabel('Price in dollars');
    expect(await price.getAttribute('aria-invalid'), `the page said: ${said}`).toBe('true');
    const describedBy = await price.getAttribute('aria-describedby');
    const message = await page.locator(`[id="${describedBy}"]`).textContent();
    expect(message).toMatch(/\S/);
    expect(await page.getByLabel('ISBN (optional)').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Title').getAttribute('aria-invalid')).toBeNull();
    await expectAccessible(page);
    await screenshot(page, 'sell-errors');
    const posts = await api('GET', '/api/books/getUsersPosts', { token: seller.token });
    expect((posts.body as { data: { name: string }[] }).data.map((b) => b.name)).not.toContain('A fine book');
  });

  it('a book no longer listed says what happened and leads on (an e-mailed link opened late)', async () => {
    const book = await listBook();
    const [buyer, other] = await Promise.all([createConfirmedUser(), createConfirmedUser()]);
    expect(
      (await api('POST', '/api/user/addToCart', { token: buyer.token, body: { bookId: book.id } })).status,
    ).toBe(200);
    expect((await api('POST', '/api/books/checkoutCart', { token: buyer.token })).status).toBe(201);
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, other.user.emailAddress);
    await page.goto(`/books/${book.id}`);
    await page
      .getByText('This book is not listed any more: someone bought it, or its seller took it down.')
      .waitFor();
    await page.getByRole('link', { name: 'ask for this one' }).click();
    await page.getByRole('heading', { level: 1, name: 'My requests and matches' }).waitFor();
    // the login page, opened while signed in, says as whom and leads on
    await page.goto('/login?next=%2Fcart');
    await page
      .getByRole('status')
      .filter({ hasText: `You are logged in as ${other.user.firstName}.` })
      .waitFor();
    await page.getByRole('link', { name: 'Go on' }).click();
    await page.getByRole('heading', { level: 1, name: 'Cart' }).waitFor();
  });

  it('a reset link that was used or expired says so and leads to a new one', async () => {
    const page = await web().newPage({ width: 390, height: 844 });
    // a well-formed token the service never issued (or one already used)
    await page.goto(`/reset-password?token=${'A'.repeat(43)}`);
    await page.getByLabel('New password (8 to 72 characters)').fill('a perfectly fine new password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'This link is invalid, has expired or was already used.' })
      .waitFor();
    await page.getByRole('link', { name: 'Ask for a new reset link' }).click();
    await page.waitForURL(/\/forgot-password$/);
    await expectAccessible(page);
  });

  it('sends an expired session to the login page, and back to where it was', async () => {
    const { account: buyer, page } = await signedIn(web());
    // The home page's own requests are all answered first: one still on its way when the session
    // ends would send the app to the login page by itself, with home as where it was (CI23 saw it).
    await page.waitForLoadState('networkidle');
    // The session ends elsewhere (logout everywhere): the token in memory and the refresh cookie stop
    // working, so the next call answers 401 and the one refresh the app tries answers 401 too.
    expect((await api('POST', '/api/auth/logoutEverywhere', { token: buyer.token })).status).toBe(200);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /Notifications/ })
      .click();
    await page.getByRole('status').filter({ hasText: 'Your session has expired' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/notifications');
    await submitLogIn(page, buyer.user.emailAddress, buyer.password);
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/notifications');
  });

  it('answers a checkout that lost the race with the name of the taken book, and buys nothing', async () => {
    const book = await listBook();
    const late = await createConfirmedUser();
    const first = await createConfirmedUser();
    const page = await web().newPage();
    await logIn(page, late.user.emailAddress);
    await page.goto(`/?q=${encodeURIComponent(book.name)}`);
    await page.getByRole('button', { name: `Add ${book.name} to cart` }).click();
    await page.getByText('In your cart').waitFor();
    await page.getByRole('link', { name: 'Cart' }).click();
    await page.getByRole('button', { name: 'Check out' }).waitFor();
    // Another buyer is first.
    expect(
      (await api('POST', '/api/user/addToCart', { token: first.token, body: { bookId: book.id } })).status,
    ).toBe(200);
    expect((await api('POST', '/api/books/checkoutCart', { token: first.token })).status).toBe(201);
    await page.getByRole('button', { name: 'Check out' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Some books were taken' });
    await alert.getByText(book.name).waitFor();
    await page.getByText('No longer available', { exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'cart-409');
    expect((await getBook(book.id))?.buyerId).toBe(first.user.id);
  });

  it('changes the unread count in the navigation at once when a notification is marked read', async () => {
    const buyer = await createConfirmedUser();
    const tag = uniqueTag();
    await requestOverHttp(buyer.token, { name: `Thermodynamics${tag} Primer`, course: `E2E ${tag}` });
    const book = await postBookOverHttp(
      seller.token,
      makeBookBody({ name: `Primer of thermodynamics${tag}, 2nd ed.`, course: `TST ${tag}` }),
    );
    // The match notification is written by the stream consumer.
    const unread = async () => {
      const res = await api('GET', '/api/user/getNotifications?limit=10', { token: buyer.token });
      expect(res.status).toBe(200);
      return (res.body as { data: { bookId?: string; read: boolean }[] }).data.filter((n) => !n.read);
    };
    await expect.poll(unread, { timeout: 30_000 }).toHaveLength(1);
    expect((await unread())[0]?.bookId).toBe(book.id);

    const page = await web().newPage();
    await logIn(page, buyer.user.emailAddress);
    await page.getByRole('link', { name: 'Notifications (1 unread)' }).click();
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    const marked = page.waitForResponse((r) => r.url().includes('/api/user/markNotificationsRead'));
    await page.getByRole('button', { name: 'Mark as read' }).click();
    // No navigation: the navigation reads the same query the mark changed (at once, before the
    // service answers: nav.test.ts)
    await page.getByRole('link', { name: 'Notifications', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: /unread/ }).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/notifications');
    expect((await marked).status()).toBe(200);
    expect(await unread()).toEqual([]);

    // with a match, the requests page leads with it, before the form and the requests
    await page.goto('/requests');
    await page
      .getByRole('heading', { level: 3, name: new RegExp(`Primer of thermodynamics${tag}`) })
      .waitFor();
    expect(await page.getByRole('heading', { level: 2 }).allInnerTexts()).toEqual([
      'Books that match',
      'Ask for a book',
      'Your requests',
    ]);

    // the match is put in the cart where it was found, without opening its page
    const match = page.getByRole('listitem').filter({ hasText: `Primer of thermodynamics${tag}` });
    await match.getByRole('button', { name: `Add ${book.name} to cart` }).click();
    await match.getByText('In your cart').waitFor();
    expect(new URL(page.url()).pathname).toBe('/requests');
    const carted = await api('GET', '/api/user/getCartItems', { token: buyer.token });
    expect(carted.status).toBe(200);
    expect(expectEnvelope(carted.body, CartContents).items.map((b) => b.id)).toEqual([book.id]);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Cart (1)' }).waitFor();
    // read again, the match says so (getUserMatches' inCart), and the heart saves it
    await page.reload();
    await match.getByText('In your cart').waitFor();
    expect(await match.getByRole('button', { name: /to cart/ }).count()).toBe(0);
    await match.getByRole('button', { name: `Save ${book.name}` }).click();
    await match.getByRole('button', { name: `Unsave ${book.name}` }).waitFor();
    const saved = await api('GET', '/api/user/getSavedBooks', { token: buyer.token });
    expect(saved.status).toBe(200);
    expect((saved.body as { data: { id: string }[] }).data.map((b) => b.id)).toEqual([book.id]);
    await expectAccessible(page);
  });

  it('asks for the book of a book page opened signed out before the app has rendered anything', async () => {
    const { id, name } = await listBook();
    const page = await web().newPage();
    // what the app had put on the screen when the book was asked for (-1: never asked); a script
    // of the page, run before the app's own
    await page.addInitScript({
      content: `(() => {
        window.bookAskedWith = -1;
        const fetchOf = window.fetch.bind(window);
        window.fetch = (input, init) => {
          const url = input instanceof Request ? input.url : String(input);
          if (url.includes('/api/books/getBook/') && window.bookAskedWith === -1)
            window.bookAskedWith = document.getElementById('root')?.childElementCount ?? -1;
          return fetchOf(input, init);
        };
      })();`,
    });
    await page.goto(`/books/${id}`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    // asked while the root was still empty: the request did not wait for React's first render
    expect(await page.evaluate<number>('window.bookAskedWith')).toBe(0);
  });

  it('opens a link with a trailing slash as the page it names', async () => {
    const { id, name } = await listBook();
    const page = await web().newPage();
    await page.goto(`/books/${id}/`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/books/${id}`);
    await page.goto('/terms/?from=mail');
    await page.getByRole('heading', { level: 1, name: 'Terms of use' }).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/terms?from=mail');
  });

  it('passes axe on every page and lays every page out at 390 x 844', async () => {
    const book = await listBook();
    const owner = await createConfirmedUser({ permissionType: 2 });
    const page = await web().newPage({ width: 390, height: 844 });
    const check = async (
      path: string,
      heading: RegExp | string,
      shot?: string,
      loaded?: () => Promise<void>,
    ) => {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await loaded?.();
      await expectAccessible(page);
      const overflow = Number(await page.evaluate('document.documentElement.scrollWidth'));
      expect(overflow, `${path} is wider than the phone`).toBeLessThanOrEqual(390);
      if (shot) await screenshot(page, shot);
    };
    // a visitor learns in one line how to join, and the books still start on the first screen
    await check('/', 'Textbooks from students on your campus', 'browse-phone', async () => {
      await page
        .getByText(/^Buy, sell and ask for books with students of your university: sign up/)
        .waitFor();
      const join = page.getByRole('main').getByRole('link', { name: 'sign up', exact: true });
      expect(await join.getAttribute('href')).toBe('/signup');
      const card = await page.locator('ul.books.grid .card').first().boundingBox();
      expect(card && card.y + 40 < 844, `first card at ${card?.y}`).toBe(true);
    });
    await check('/signup', 'Sign up');
    await check('/login', 'Log in');
    await check('/forgot-password', 'Forgot password');
    await check('/reset-password?token=abc', 'Choose a new password');
    await check('/confirm?token=abc', 'Confirm your account');
    // where the service sends a reopened or replaced e-mailed link (APP_URL set; lib/http/pages.ts)
    await check('/confirm?state=confirmed', 'Your account is already confirmed');
    await page.getByRole('link', { name: 'Log in' }).last().waitFor();
    await check('/confirm?state=replaced', 'This link was replaced');
    await check('/confirm?state=invalid', 'Confirm your account');
    await page.getByText('This link does not work').waitFor();
    await check('/email-confirmed', 'Your account is confirmed');
    await check('/terms', 'Terms of use');
    await check('/privacy', 'Privacy');
    await check('/no-such-page', 'Page not found');
    await check('/unsubscribe?token=abc', 'Unsubscribe');
    await logIn(page, owner.user.emailAddress);
    await check(`/?q=${encodeURIComponent(book.name)}`, /Welcome/, 'home-phone');
    await page.getByRole('link', { name: book.name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: book.name }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'book-phone');
    await check('/sell', 'Sell a book');
    await check('/listings', 'My listings');
    await check('/requests', 'My requests and matches', 'requests-phone');
    await check('/cart', 'Cart');
    // nothing bought or sold yet: each empty list says what to do next
    await check('/orders', 'Purchases and sales', undefined, async () => {
      const mine = page.getByRole('region', { name: 'My orders' });
      await mine.getByText('No orders yet.').waitFor();
      expect(await mine.getByRole('link', { name: 'Find a book' }).getAttribute('href')).toBe('/');
      const sold = page.getByRole('region', { name: 'Books I sold' });
      await sold.getByText('Nothing yet.').waitFor();
      expect(await sold.getByRole('link', { name: 'Sell a book' }).getAttribute('href')).toBe('/sell');
    });
    // nothing told yet: the page says what will come here and links where it starts
    await check('/notifications', 'Notifications', undefined, async () => {
      await page
        .getByText(/^No notifications yet\. You hear here when a book you asked for is listed/)
        .waitFor();
      expect(await page.getByRole('link', { name: 'asked for' }).getAttribute('href')).toBe('/requests');
      expect(await page.getByRole('link', { name: 'saved', exact: true }).getAttribute('href')).toBe(
        '/saved',
      );
    });
    await check('/messages', 'Messages', undefined, async () => {
      await page.getByText(/^No conversations yet\./).waitFor();
      expect(await page.getByRole('link', { name: 'find a book' }).getAttribute('href')).toBe('/');
    });
    // one listing of their own: its figure reads "1 active listing" and opens My listings
    const listed = await api('POST', '/api/books/postBook', {
      token: owner.token,
      body: makeBookBody({ name: `Owner's own ${Date.now().toString(36)}` }),
    });
    expect(listed.status).toBe(201);
    await check('/settings', 'Settings', 'settings-phone', async () => {
      const figures = page.getByRole('region', { name: 'Your activity' }).getByRole('listitem');
      await expect
        .poll(() => figures.allTextContents())
        .toEqual([
          '1 active listing',
          '0 open requests',
          '0 books bought',
          '0 books sold',
          '$0.00 earned',
          '0 books match your requests',
        ]);
      expect(await figures.first().getByRole('link').getAttribute('href')).toBe('/listings');
    });
    await check('/preferences', 'E-mail preferences');
    await check('/my-data', 'Your data');
    // an audited change, so the audit tab is checked with a row too wide for the phone in it
    const promoted = await createConfirmedUser({ lastName: `Promoted${Date.now().toString(36)}` });
    const promotedName = `${promoted.user.firstName} ${promoted.user.lastName}`;
    const ownerName = `${owner.user.firstName} ${owner.user.lastName}`;
    expect(
      (
        await api('PUT', '/api/dashboard/makeAdmin', {
          token: owner.token,
          body: { userId: promoted.user.id },
        })
      ).status,
    ).toBe(200);
    expect((await getUser(promoted.user.id))?.permissionType).toBe(1);
    const auditLog = page.getByRole('region', { name: 'Audit log table' });
    const auditRow = async () => {
      // names, not ids: who acted, on whom, and the change in words
      const row = auditLog.getByRole('row').filter({ hasText: promotedName });
      await row.getByRole('cell', { name: promotedName, exact: true }).waitFor();
      await row.getByRole('cell', { name: 'made an admin', exact: true }).waitFor();
      await row.getByRole('cell', { name: 'permissionType 0 → 1', exact: true }).waitFor();
      // On a phone each row is a card (styles.css), and the table's region never reaches past the
      // phone's screen.
      const box = await auditLog.evaluate((e) => ({
        right: e.getBoundingClientRect().right,
        screen: e.ownerDocument.documentElement.clientWidth,
      }));
      expect(box.right, 'the audit table stays inside the screen').toBeLessThanOrEqual(box.screen);
    };
    for (const tab of ['queues', 'points', 'orders', 'reports', 'statistics', 'users', 'audit', 'owner'])
      await check(
        `/dashboard?tab=${tab}`,
        'Dashboard',
        tab === 'statistics' ? 'dashboard-statistics-phone' : undefined,
        tab === 'audit' ? auditRow : undefined,
      );
    // the scrolling region takes keyboard focus, so it can be scrolled without a pointer
    await page.goto('/dashboard?tab=audit');
    await auditRow();
    await auditLog.focus();
    expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe('Audit log table');
    // narrowed to the owner by their name, to one action, then to days with nothing in them
    // the Who cell shows the name alone (not "Only <name>"); the button says what it does
    const byName = auditLog.getByRole('button', {
      name: `${ownerName}: show only their entries`,
      exact: true,
    });
    expect(await byName.first().textContent()).toBe(ownerName);
    await byName.first().click();
    await page.getByRole('button', { name: `Show everyone (now only ${ownerName})` }).waitFor();
    await page.getByLabel('Action').selectOption({ label: 'made an admin' });
    await auditRow();
    const whoCells = await auditLog.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(new Set(whoCells)).toEqual(new Set([ownerName]));
    await page.getByLabel('From').fill('2099-01-01');
    await page.getByText('Nothing recorded matches these filters.').waitFor();
    // days the wrong way round: the service's own sentence, not "The request is invalid."
    await page.getByLabel('To').fill('2098-12-31');
    await page.getByRole('alert').filter({ hasText: 'The first day comes after the last one.' }).waitFor();
    await page.getByLabel('To').fill('2099-01-02');
    await page.getByText('Nothing recorded matches these filters.').waitFor();
    await expectAccessible(page);
    expect(await tokenOf(page)).toMatch(/\S/);
  });
});
