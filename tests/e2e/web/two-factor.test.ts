/**
 * Two-factor sign-in in a real browser: an owner enrols on the settings page by reading the secret
 * from the page (as an authenticator app would from the QR code) and confirming with a code computed
 * here with otpauth; the recovery codes are shown once; then the login form asks for a code, and
 * takes a TOTP code or a recovery code.
 */
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, signedIn } from '#tests/helpers/browser.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: at,
  });

/** Fills the login form; the service asks for a code, the form shows its field, and `code` signs in. */
async function logInWithCode(page: Page, emailAddress: string, password: string, code: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(emailAddress);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  const codeField = page.getByLabel('Code from your authenticator app (or a recovery code)');
  await codeField.waitFor();
  await expect(page.getByRole('alert').textContent()).resolves.toMatch(/6-digit code/);
  await codeField.fill(code);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { level: 1, name: /Welcome/ }).waitFor();
}

describe('two-factor sign-in', () => {
  it('an owner enrols with the QR code’s secret, then logs in with a code and with a recovery code', async () => {
    const { account: owner, page } = await signedIn(web(), undefined, {
      permissionType: 2,
      firstName: 'Otto',
    });
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const qr = page.getByRole('img', { name: 'QR code to scan with an authenticator app' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    await expectAccessible(page);
    await page.getByLabel('Code from the app').fill(codeAt(secret, Date.now()));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    const list = page.getByTestId('recovery-codes');
    await list.waitFor();
    const recoveryCodes = (await list.locator('code').allTextContents()).map((c) => c.trim());
    expect(recoveryCodes).toHaveLength(10);
    await expectAccessible(page);

    // another browser, desktop: the form asks for the code, the next step's code signs in
    const desk = await web().newPage();
    await logInWithCode(desk, owner.user.emailAddress, owner.password, codeAt(secret, Date.now() + 30_000));

    // a phone: a recovery code signs in, once
    const phone = await web().newPage({ width: 390, height: 844 });
    await logInWithCode(phone, owner.user.emailAddress, owner.password, recoveryCodes[0] as string);
    await expectAccessible(phone);
  });

  it('a student’s settings page has no two-factor section', async () => {
    const { page } = await signedIn(web());
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Password' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Two-factor sign-in' }).count()).toBe(0);
  });
});
