/**
 * The trust pages in a real browser, against the e2e tier's API: a student reports a book from its
 * page, an admin works the moderation queue (dismiss, unlist) and suspends then reinstates a student;
 * e-mail preferences, the page of an e-mailed unsubscribe link, the export of one's data, and the
 * caller's orders. Stored state is re-read over the API or from the table at each step.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getBook } from '#lib/db/books.ts';
import { getUser } from '#lib/db/users.ts';
import { campusOfEmail } from '#lib/values/campus.ts';
import {
  ageAccount,
  createConfirmedUser,
  DEFAULT_PASSWORD,
  type TestAccount,
} from '#tests/helpers/accounts.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import {
  buyOverApi,
  expectAccessible,
  goByNav,
  listBook,
  logIn,
  preferencesOf,
  screenshot,
  sellerWithBookAt,
} from '#tests/helpers/browser.ts';
import { api, postBookOverHttp, requestOverHttp, uniqueTag, waitForEmail } from '#tests/helpers/e2e.ts';
import { refreshFrom } from '#tests/helpers/web-session.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

const report = (token: string, bookId: string) =>
  api('POST', '/api/books/reportBook', { token, body: { bookId, reason: 'spam' } });

const reportsOf = async (admin: TestAccount) => {
  const res = await api('GET', '/api/dashboard/getReports', { token: admin.token });
  expect(res.status).toBe(200);
  return (
    res.body as {
      data: {
        bookId: string;
        count: number;
        hidden: boolean;
        reports: { userId: string; reason: string; details: string | null }[];
      }[];
    }
  ).data;
};

describe('trust and e-mail pages in the browser', () => {
  it('a student reports a book from its page; an admin dismisses the reports, unlists another book and restores a third one three people hid', async () => {
    const seller = await createConfirmedUser();
    const admin = await createConfirmedUser({ permissionType: 1 });
    const kept = await listBook(seller.token);
    const bad = await listBook(seller.token);

    // accounts two days old: their reports count towards hiding (lib/moderation/reporters.ts)
    const reporter = await createConfirmedUser();
    await ageAccount(reporter.user.id);
    const page = await web().newPage();
    await logIn(page, reporter.user.emailAddress);
    await page.goto(`/books/${kept.id}`);
    await page.getByRole('heading', { level: 1, name: kept.name }).waitFor();
    await page.getByText('Report this listing').click();
    await page.getByLabel('What is wrong?').selectOption('wrong-info');
    await page.getByLabel('Details (optional)').fill('The edition is the 2nd, not the 3rd.');
    await expectAccessible(page);
    await screenshot(page, 'book-report');
    await page.getByRole('button', { name: `Report ${kept.name}` }).click();
    await page.getByRole('status').filter({ hasText: 'the administrators will look' }).waitFor();
    const [filed] = (await reportsOf(admin)).filter((r) => r.bookId === kept.id);
    expect(filed?.reports).toEqual([
      expect.objectContaining({
        userId: reporter.user.id,
        reason: 'wrong-info',
        details: 'The edition is the 2nd, not the 3rd.',
      }),
    ]);

    // Two more students report it: three reporters hide it from everyone but its owner and admins.
    const others = [await createConfirmedUser(), await createConfirmedUser()];
    for (const other of others) {
      await ageAccount(other.user.id);
      expect((await report(other.token, kept.id)).status).toBe(200);
    }
    // the same three hide a third book, which the admin restores below
    const wronged = await listBook(seller.token);
    for (const who of [reporter, ...others]) expect((await report(who.token, wronged.id)).status).toBe(200);
    expect((await api('GET', `/api/books/getBook/${wronged.id}`)).status).toBe(404);
    expect((await api('GET', `/api/books/getBook/${kept.id}`)).status).toBe(404);
    expect((await report(reporter.token, bad.id)).status).toBe(200);

    const desk = await web().newPage();
    await logIn(desk, admin.user.emailAddress);
    await desk.goto('/dashboard?tab=reports');
    const item = desk.getByRole('article', { name: kept.name });
    await item.getByText('3 reports · hidden from students').waitFor();
    await expectAccessible(desk);
    await screenshot(desk, 'dashboard-reports');
    // the title opens the book
    expect(await item.getByRole('link', { name: kept.name }).getAttribute('href')).toBe(`/books/${kept.id}`);
    await desk.getByRole('button', { name: `Dismiss the reports on ${kept.name}` }).click();
    await item.waitFor({ state: 'detached' });
    await desk
      .getByRole('status')
      .filter({ hasText: `The reports on ${kept.name} are dismissed.` })
      .waitFor();
    expect((await api('GET', `/api/books/getBook/${kept.id}`)).status).toBe(200);
    expect((await reportsOf(admin)).map((r) => r.bookId)).not.toContain(kept.id);

    await desk.getByLabel(`Reason told to the seller of ${bad.name} (optional)`).fill('Not a textbook.');
    // unlisting asks first: declined, nothing happens
    desk.once('dialog', (d) => void d.dismiss());
    await desk.getByRole('button', { name: `Unlist ${bad.name}` }).click();
    await desk.waitForTimeout(300);
    expect((await getBook(bad.id))?.status).toBe(0);
    desk.once('dialog', (d) => void d.accept());
    await desk.getByRole('button', { name: `Unlist ${bad.name}` }).click();
    await desk.getByRole('article', { name: bad.name }).waitFor({ state: 'detached' });
    await desk
      .getByRole('status')
      .filter({ hasText: `${bad.name} is unlisted; its seller is told.` })
      .waitFor();
    expect((await getBook(bad.id))?.status).toBe(5);
    expect((await getBook(kept.id))?.status).toBe(0);

    // restore: back for everyone in one action
    await desk.getByRole('button', { name: `Restore ${wronged.name}` }).click();
    await desk.getByRole('article', { name: wronged.name }).waitFor({ state: 'detached' });
    expect((await api('GET', `/api/books/getBook/${wronged.id}`)).status).toBe(200);
    expect(await getBook(wronged.id)).toMatchObject({ status: 0, reportCount: 0, weightedCount: 0 });
  });

  it('an admin suspends a student on the users tab (token refused, books unlisted), then reinstates them', async () => {
    const admin = await createConfirmedUser({ permissionType: 1 });
    const student = await createConfirmedUser({ firstName: 'Suspendable' });
    const book = await listBook(student.token);
    const page = await web().newPage();
    await logIn(page, admin.user.emailAddress);
    await page.goto('/dashboard?tab=users');
    // a search that finds nobody says so, and what else to try
    await page.getByLabel('Find by name, e-mail, campus or user id').fill('zzz-nobody-by-this-name');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('status').filter({ hasText: 'Nobody matches “zzz-nobody-by-this-name”.' }).waitFor();
    await page.getByLabel('Find by name, e-mail, campus or user id').fill(student.user.emailAddress);
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('cell', { name: student.user.emailAddress }).waitFor();
    // the row says the user is active, where they study and since when; only "Suspend" is offered
    const row = page.getByRole('row').filter({ hasText: student.user.emailAddress });
    await row.getByRole('cell', { name: 'Active', exact: true }).waitFor();
    await row
      .getByRole('cell', { name: campusOfEmail(student.user.emailAddress.toLowerCase()), exact: true })
      .waitFor();
    expect(await row.getByRole('button', { name: 'Reinstate Suspendable' }).count()).toBe(0);
    await page.getByLabel('Reason to suspend Suspendable').fill('Abusive messages to buyers.');
    await page.getByRole('button', { name: 'Suspend Suspendable' }).click();
    await page.getByRole('status').filter({ hasText: 'Suspendable is suspended; 1 listed books' }).waitFor();
    await row.getByRole('cell', { name: 'Suspended: Abusive messages to buyers.' }).waitFor();
    expect(await row.getByRole('button', { name: 'Suspend Suspendable' }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'dashboard-suspend');
    expect((await api('GET', '/api/user/getUserData', { token: student.token })).status).toBe(401);
    expect((await getBook(book.id))?.status).toBe(5);
    const refused = await api('POST', '/api/auth/login', {
      body: { emailAddress: student.user.emailAddress, password: student.password },
    });
    expect(refused.status).toBe(401);

    await page.getByRole('button', { name: 'Reinstate Suspendable' }).click();
    await page.getByRole('status').filter({ hasText: 'Suspendable is reinstated' }).waitFor();
    const back = await api('POST', '/api/auth/login', {
      body: { emailAddress: student.user.emailAddress, password: student.password },
    });
    expect(back.status).toBe(200);
  });

  it('an owner makes and revokes an admin only once asked, and is told; a plain admin is offered no move it may not make', async () => {
    const owner = await createConfirmedUser({ permissionType: 2 });
    const student = await createConfirmedUser({ firstName: 'Promotable' });
    const page = await web().newPage();
    await logIn(page, owner.user.emailAddress);
    await page.goto('/dashboard?tab=users');
    const search = page.getByLabel('Find by name, e-mail, campus or user id');
    await search.fill(student.user.emailAddress);
    await page.getByRole('button', { name: 'Find' }).click();
    const make = page.getByRole('button', { name: 'Make Promotable admin' });
    // dismissed: nothing changes
    page.once('dialog', (d) => void d.dismiss());
    await make.click();
    await page.waitForTimeout(300);
    expect((await getUser(student.user.id))?.permissionType).toBe(0);
    page.once('dialog', (d) => {
      expect(d.message()).toContain(
        `Make Promotable ${student.user.lastName} (${student.user.emailAddress}) an admin?`,
      );
      void d.accept();
    });
    await make.click();
    await page
      .getByRole('status')
      .filter({ hasText: `Promotable ${student.user.lastName} is now an admin` })
      .waitFor();
    expect((await getUser(student.user.id))?.permissionType).toBe(1);

    // the new admin (not an owner) sees no Suspend for another admin, nor for themselves
    const other = await createConfirmedUser({ permissionType: 1, firstName: 'Colleague' });
    const desk = await web().newPage();
    await logIn(desk, student.user.emailAddress);
    await desk.goto('/dashboard?tab=users');
    for (const who of [other.user.emailAddress, student.user.emailAddress]) {
      await desk.getByLabel('Find by name, e-mail, campus or user id').fill(who);
      await desk.getByRole('button', { name: 'Find' }).click();
      await desk.getByRole('cell', { name: who, exact: true }).waitFor();
      expect(await desk.getByRole('button', { name: /^Suspend / }).count(), who).toBe(0);
    }

    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Revoke admin of Promotable' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Promotable ${student.user.lastName} is no longer an admin.` })
      .waitFor();
    expect((await getUser(student.user.id))?.permissionType).toBe(0);
  });

  it('saves the e-mail preferences chosen on their page', async () => {
    const student = await createConfirmedUser();
    const page = await web().newPage();
    await logIn(page, student.user.emailAddress);
    await goByNav(page, 'Settings');
    await page.getByRole('link', { name: 'E-mail preferences' }).click();
    await page.getByRole('heading', { level: 1, name: 'E-mail preferences' }).waitFor();
    // The contract's defaults are shown first.
    expect(await page.getByLabel('one e-mail per match').isChecked()).toBe(true);
    await page.getByLabel('one summary a day').check();
    await page.getByLabel('E-mails about my purchases and sales').uncheck();
    await page.getByRole('button', { name: 'Save the preferences' }).click();
    await page.getByRole('status').filter({ hasText: 'Preferences saved' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'preferences');
    expect(await preferencesOf(student.token)).toEqual({
      matches: 'daily',
      purchases: false,
      listings: true,
      messages: true,
      saved: true,
    });
  });

  it('turns match e-mails off from the page of the link in a match e-mail, without a session', async () => {
    const requester = await createConfirmedUser();
    const seller = await createConfirmedUser();
    const tag = uniqueTag();
    await requestOverHttp(requester.token, { name: `Optics${tag} Primer`, course: `OPT ${tag}` });
    await postBookOverHttp(
      seller.token,
      makeBookBody({ name: `Primer of optics${tag}`, course: `OPT ${tag}` }),
    );
    const mail = await waitForEmail(requester.user.emailAddress, /Match for your book request/, 30_000);
    const token = mail.body.text?.match(/\/api\/user\/unsubscribe\/([A-Za-z0-9._-]+)/)?.[1];
    expect(token).toBeDefined();

    const page = await web().newPage();
    await page.goto(`/unsubscribe?token=${token}`);
    await page.getByRole('heading', { level: 1, name: 'Unsubscribe' }).waitFor();
    // Opening the page changes nothing (mail scanners open links).
    expect(await preferencesOf(requester.token)).toMatchObject({ matches: 'each' });
    await expectAccessible(page);
    await screenshot(page, 'unsubscribe');
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('status').filter({ hasText: 'You are unsubscribed.' }).waitFor();
    expect(await preferencesOf(requester.token)).toEqual({
      matches: 'off',
      purchases: true,
      listings: true,
      messages: true,
      saved: true,
    });
  });

  it('downloads the JSON of exportData from the "Your data" page', async () => {
    const { seller: student, book, page } = await sellerWithBookAt(web(), '/settings');
    await page.getByRole('link', { name: 'Your data' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your data' }).waitFor();
    await expectAccessible(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^campus-books-data-\d{4}-\d{2}-\d{2}\.json$/);
    const text = readFileSync(await download.path(), 'utf8');
    const data = JSON.parse(text) as {
      profile: { id: string; emailAddress: string };
      books: { id?: string }[];
    };
    expect(data.profile).toMatchObject({ id: student.user.id, emailAddress: student.user.emailAddress });
    expect(data.books.map((b) => b.id)).toContain(book.id);
    expect(text).not.toMatch(/passwordHash|"token"/);
    await page.getByRole('status').filter({ hasText: 'Your data was downloaded' }).waitFor();
  });

  it('deletes the account from its page after the password: logged out, login refused, listings gone', async () => {
    const { seller: student, book, page } = await sellerWithBookAt(web(), '/settings');
    await page.getByRole('link', { name: 'Delete your account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Delete your account' }).waitFor();
    await expectAccessible(page);
    // A wrong password deletes nothing and says so.
    await page.getByLabel('Your password').fill('not-the-password');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('alert').waitFor();
    expect((await api('GET', '/api/user/getUserStatistics', { token: student.token })).status).toBe(200);
    await screenshot(page, 'delete-account');

    await page.getByLabel('Your password').fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('status').filter({ hasText: 'Your account was deleted' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    // the refresh cookie of the deleted account opens no session any more
    expect((await refreshFrom(page)).status).toBe(401);
    // The token stops at once, the address no longer logs in, the listing is gone.
    expect((await api('GET', '/api/user/getUserStatistics', { token: student.token })).status).toBe(401);
    const login = await api('POST', '/api/auth/login', {
      body: { emailAddress: student.user.emailAddress, password: DEFAULT_PASSWORD },
    });
    expect(login.status).toBe(401);
    expect((await api('GET', `/api/books/getBook/${book.id}`)).status).toBe(404);
  });

  it("lists the caller's orders and opens one with its books, progress and amounts", async () => {
    const seller = await createConfirmedUser();
    const buyer = await createConfirmedUser();
    const book = await listBook(seller.token);
    const order = await buyOverApi(buyer.token, book.id);

    const page = await web().newPage();
    await logIn(page, buyer.user.emailAddress);
    await goByNav(page, 'Orders');
    await page.getByRole('link', { name: new RegExp(`^Order of .*${book.name}`) }).click();
    await page.getByRole('heading', { level: 1, name: 'Order' }).waitFor();
    await page.getByRole('heading', { level: 2, name: new RegExp(book.name) }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/orders/${order.id}`);
    const total = order.total.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
    await page.locator('dd', { hasText: total }).last().waitFor();
    await expectAccessible(page);
    await screenshot(page, 'order');
    const stored = await api('GET', `/api/user/getOrder/${order.id}`, { token: buyer.token });
    expect((stored.body as { data: { books: { id: string; status: number }[] } }).data.books).toEqual([
      expect.objectContaining({ id: book.id, status: 1 }),
    ]);
  });
});
