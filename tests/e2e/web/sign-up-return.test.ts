/**
 * A visitor who opens a shared book's page and signs up from it comes back to that book: the book
 * page offers "Log in" and "sign up" (each with `?next=` the book), the sign-up keeps the page
 * through the e-mailed confirmation (web/src/return-to.ts), and the confirmed page links back to it
 * once. From there the new student buys it.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CartContents } from '#lib/cart/schemas.ts';
import { createConfirmedUser, DEFAULT_PASSWORD, emailTokenIn, uniqueEmail } from '#tests/helpers/accounts.ts';
import { expectAccessible, listBook, submitSignUp } from '#tests/helpers/browser.ts';
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
