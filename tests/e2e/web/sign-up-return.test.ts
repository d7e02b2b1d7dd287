/**
 * A visitor who opens a shared book's page and signs up from it comes back to that book: the book
 * page offers "Log in" and "sign up" (each with `?next=` the book), the sign-up keeps the page
 * through the e-mailed confirmation (web/src/return-to.ts), and the confirmed page links back to it
 * once. From there the new student buys it. Before that, the link reaches them: "Share" on a listed
 * book's page opens the share sheet where the browser has one, else copies the link.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CartContents } from '#lib/cart/schemas.ts';
import { createConfirmedUser, DEFAULT_PASSWORD, emailTokenIn, uniqueEmail } from '#tests/helpers/accounts.ts';
import { buyOverApi, expectAccessible, listBook, logIn, submitSignUp } from '#tests/helpers/browser.ts';
import { api, waitForEmail } from '#tests/helpers/e2e.ts';
import { CONFIRMATION_SUBJECT } from '#tests/helpers/e2e-accounts.ts';
import { expectEnvelope } from '#tests/helpers/schema.ts';
import { tokenOf } from '#tests/helpers/web-session.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

/**
 * Signs `firstName` up on `page` (the sign-up form it shows), then opens the e-mailed link in
 * `mailTab` (another tab of the same browser, or the same page) and confirms: the student is
 * logged in on the confirmed page.
 */
async function signUpAndConfirm(page: Page, firstName: string, mailTab: Page = page): Promise<void> {
  const emailAddress = uniqueEmail(firstName.toLowerCase());
  await submitSignUp(page, emailAddress, {
    firstName,
    lastName: 'Student',
    campusMailbox: 'Box 7',
    paymentUsername: `@${firstName.toLowerCase()}`,
  });
  const token = emailTokenIn(await waitForEmail(emailAddress, CONFIRMATION_SUBJECT));
  await mailTab.goto(`/confirm?token=${token}`);
  await mailTab.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
  await mailTab.getByRole('button', { name: 'Confirm my account' }).click();
  await mailTab.getByText(`Welcome to Campus Books, ${firstName}. You are logged in.`).waitFor();
}

describe('sharing a listed book', () => {
  it('opens the share sheet where there is one, else copies the link; a sold book has no Share', async () => {
    const seller = await createConfirmedUser();
    const buyer = await createConfirmedUser();
    const book = await listBook(seller.token);
    const bookPath = `/books/${encodeURIComponent(book.id)}`;
    const link = `${web().url}${bookPath}`;
    const share = `Share ${book.name}`;

    // the seller, on a phone with a share sheet (the Web Share API, stood in for: headless
    // Chromium on Linux has none), passes their own listing on
    const phone = await web().newPage({ width: 390, height: 844 });
    await phone.addInitScript('navigator.share = async (data) => { window.__shared = data; };');
    await logIn(phone, seller.user.emailAddress);
    await phone.goto(bookPath);
    await phone.getByRole('button', { name: share }).click();
    await expect
      .poll(() => phone.evaluate('window.__shared'))
      .toEqual({ title: book.name, text: `“${book.name}” on Campus Books`, url: link });

    // a visitor without a share sheet: the link is copied, and the page says so
    const desk = await web().newPage({ width: 1280, height: 900 });
    await desk.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web().url });
    await desk.goto(bookPath);
    await desk.getByRole('button', { name: share }).click();
    await desk
      .getByRole('status')
      .filter({ hasText: 'Link copied: paste it in a chat or an e-mail.' })
      .waitFor();
    expect(await desk.evaluate('navigator.clipboard.readText()')).toBe(link);
    await expectAccessible(desk);

    // the clipboard refused too: the link is shown, selected, to copy by hand
    const bare = await web().newPage({ width: 1280, height: 900 });
    await bare.addInitScript("navigator.clipboard.writeText = () => Promise.reject(new Error('refused'));");
    await bare.goto(bookPath);
    await bare.getByRole('button', { name: share }).click();
    const shown = bare.getByLabel('Copy this link:');
    await shown.waitFor();
    expect(await shown.inputValue()).toBe(link);
    expect(
      await bare.evaluate(
        `(() => { const e = document.querySelector('.share-link'); return e.value.slice(e.selectionStart, e.selectionEnd); })()`,
      ),
    ).toBe(link);

    // bought: nothing left to pass on
    await buyOverApi(buyer.token, book.id);
    await phone.reload();
    await phone.getByText('You sold this book').waitFor();
    expect(await phone.getByRole('button', { name: share }).count()).toBe(0);
  });
});

describe('signing up from a book page', () => {
  it('brings the new student back to the book after the e-mailed confirmation, to buy it', async () => {
    const seller = await createConfirmedUser();
    const book = await listBook(seller.token);
    const bookPath = `/books/${encodeURIComponent(book.id)}`;
    const page = await web().newPage({ width: 390, height: 844 });
    await page.goto(bookPath);
    await page.getByRole('heading', { level: 1, name: book.name }).waitFor();
    await page.getByText(/or sign up to buy it or ask the seller\.$/).waitFor();
    const logInHref = await page
      .getByRole('link', { name: 'Log in', exact: true })
      .last()
      .getAttribute('href');
    expect(logInHref).toBe(`/login?next=${encodeURIComponent(bookPath)}`);
    await expectAccessible(page);

    await page.getByRole('link', { name: 'sign up', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign up' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe(bookPath);
    // already signed up after all: the Log in link goes back to the book too
    expect(await page.getByRole('link', { name: 'Log in', exact: true }).last().getAttribute('href')).toBe(
      logInHref,
    );
    // the e-mailed link opens in another tab of the same browser
    const mailTab = await page.context().newPage();
    await signUpAndConfirm(page, 'Rae', mailTab);
    const back = mailTab.getByRole('link', { name: 'Go back to where you signed up' });
    expect(await back.getAttribute('href')).toBe(bookPath);
    await expectAccessible(mailTab);
    // offered once: the browser keeps only the session hint afterwards
    expect(await mailTab.evaluate(() => Object.keys(localStorage))).toEqual(['cb_signed_in']);

    await back.click();
    await mailTab.getByRole('heading', { level: 1, name: book.name }).waitFor();
    await mailTab.getByRole('button', { name: 'Add to cart' }).click();
    await mailTab.getByText('In your cart.').waitFor();
    const cart = await api('GET', '/api/user/getCartItems', { token: await tokenOf(mailTab) });
    expect(cart.status).toBe(200);
    expect(expectEnvelope(cart.body, CartContents).items.map((b) => b.id)).toEqual([book.id]);

    // a reload of the confirmed page offers nothing more
    await mailTab.goto('/email-confirmed');
    await mailTab.getByText('Welcome to Campus Books, Rae. You are logged in.').waitFor();
    expect(await mailTab.getByRole('link', { name: 'Go back to where you signed up' }).count()).toBe(0);
  });

  it('offers no way back after a sign-up from the sign-up page itself, whatever an earlier one kept', async () => {
    const page = await web().newPage({ width: 390, height: 844 });
    await page.goto('/signup');
    // an earlier visitor on this browser signed up from the Saved page and never confirmed
    await page.evaluate(() => localStorage.setItem('cb_return_to', '/saved'));
    await signUpAndConfirm(page, 'Pat');
    expect(await page.getByRole('link', { name: 'Go back to where you signed up' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Find books' }).waitFor();
  });
});
