/**
 * Steps that undo something ask first (window.confirm), as cancelling a purchase on the dashboard
 * does: emptying the cart (also one whose books were all sold), unlisting a book, deleting a request. The question names what goes;
 * "Cancel" changes nothing (re-read over the API), "OK" does it.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { buyOverApi, expectAccessible, listBook, logIn } from '#tests/helpers/browser.ts';
import { api, requestOverHttp, uniqueTag } from '#tests/helpers/e2e.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

const PHONE = { width: 390, height: 844 };

/**
 * Presses `button` and answers the question it asks (OK when `accept`); resolves to that question.
 * Fails when no question is asked.
 */
async function pressAndAnswer(page: Page, button: string, accept: boolean): Promise<string> {
  const asked: string[] = [];
  page.once('dialog', (d) => {
    asked.push(d.message());
    void (accept ? d.accept() : d.dismiss());
  });
  await page.getByRole('button', { name: button, exact: true }).click();
  await expect.poll(() => asked.length).toBe(1);
  return asked[0] ?? '';
}

/** A new student's page on a phone, logged in, at `path`. */
async function studentAt(emailAddress: string, path: string): Promise<Page> {
  const page = await web().newPage(PHONE);
  await logIn(page, emailAddress);
  await page.goto(path);
  return page;
}

const cartIds = async (token: string) => {
  const res = await api('GET', '/api/user/getCartItems', { token });
  expect(res.status).toBe(200);
  return (res.body as { data: { items: { id: string }[] } }).data.items.map((b) => b.id).sort();
};

describe('destructive steps ask first', () => {
  it('"Empty the cart" asks to remove all 3 books: Cancel keeps them, OK empties the cart', async () => {
    const [seller, buyer] = await Promise.all([createConfirmedUser(), createConfirmedUser()]);
    const books = [await listBook(seller.token), await listBook(seller.token), await listBook(seller.token)];
    for (const b of books)
      expect(
        (await api('POST', '/api/user/addToCart', { token: buyer.token, body: { bookId: b.id } })).status,
      ).toBe(200);
    const carted = books.map((b) => b.id).sort();
    const page = await studentAt(buyer.user.emailAddress, '/cart');
    await page.getByText('3 books to buy.', { exact: false }).waitFor();

    expect(await pressAndAnswer(page, 'Empty the cart', false)).toBe('Remove all 3 books from your cart?');
    expect(await cartIds(buyer.token)).toEqual(carted);
    for (const b of books) await page.getByRole('button', { name: `Remove ${b.name}` }).waitFor();

    expect(await pressAndAnswer(page, 'Empty the cart', true)).toBe('Remove all 3 books from your cart?');
    await page.getByText('Your cart is empty.').waitFor();
    expect(await cartIds(buyer.token)).toEqual([]);
    await expectAccessible(page);
  });

  it('"Empty the cart" is there when nothing in the cart is left to buy (its books were sold), and empties it', async () => {
    const [seller, buyer, rival] = await Promise.all([
      createConfirmedUser(),
      createConfirmedUser(),
      createConfirmedUser(),
    ]);
    const books = [await listBook(seller.token), await listBook(seller.token)];
    for (const b of books)
      expect(
        (await api('POST', '/api/user/addToCart', { token: buyer.token, body: { bookId: b.id } })).status,
      ).toBe(200);
    await buyOverApi(rival.token, books[0]?.id ?? '');
    expect(
      (await api('POST', '/api/books/deleteBook', { token: seller.token, body: { bookId: books[1]?.id } }))
        .status,
    ).toBe(200);
    const page = await studentAt(buyer.user.emailAddress, '/cart');
    await expect.poll(() => page.getByText('No longer available', { exact: true }).count()).toBe(2);
    expect(await page.getByRole('button', { name: 'Check out' }).count()).toBe(0);

    expect(await pressAndAnswer(page, 'Empty the cart', true)).toBe('Remove all 2 books from your cart?');
    await page.getByText('Your cart is empty.').waitFor();
    expect(await cartIds(buyer.token)).toEqual([]);
  });

  it('"Unlist" names the book: Cancel keeps it listed, OK unlists it', async () => {
    const seller = await createConfirmedUser();
    const book = await listBook(seller.token);
    const statusOf = async () => {
      const res = await api('GET', '/api/books/getUsersPosts', { token: seller.token });
      expect(res.status).toBe(200);
      return (res.body as { data: { id: string; status: number }[] }).data.find((b) => b.id === book.id)
        ?.status;
    };
    const page = await studentAt(seller.user.emailAddress, '/listings');
    const question = `Unlist “${book.name}”? Buyers no longer see it; you can relist it here.`;

    expect(await pressAndAnswer(page, `Unlist ${book.name}`, false)).toBe(question);
    expect(await statusOf()).toBe(0);
    await page.getByRole('button', { name: `Unlist ${book.name}` }).waitFor();

    expect(await pressAndAnswer(page, `Unlist ${book.name}`, true)).toBe(question);
    await page.getByRole('button', { name: `Relist ${book.name}` }).waitFor();
    expect(await statusOf()).toBe(5);
  });

  it('deleting a request names it: Cancel keeps it, OK deletes it', async () => {
    const student = await createConfirmedUser();
    const name = `Asked ${uniqueTag()}`;
    await requestOverHttp(student.token, { name, course: 'CHEM 203' });
    const requested = async () => {
      const res = await api('GET', '/api/user/getRequests', { token: student.token });
      expect(res.status).toBe(200);
      return (res.body as { data: { name: string }[] }).data.map((r) => r.name);
    };
    const page = await studentAt(student.user.emailAddress, '/requests');
    // the student's own requests are a section of their own, under the form
    const mine = page.getByRole('region', { name: 'Your requests' });
    await mine.getByRole('listitem').first().waitFor();
    expect(await mine.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(new RegExp(`^${name} · CHEM 203`)),
    ]);
    const question = `Delete your request for “${name}”? We stop telling you when it is listed.`;
    // a short "Delete" on the request's own line, even on a phone (the title is in its accessible
    // name): the button's middle is level with the request's words
    const level = await page
      .getByRole('button', { name: `Delete the request for ${name}` })
      .evaluate((button) => {
        const words = button.ownerDocument.createRange();
        words.setStartBefore(button.parentElement?.firstChild ?? button);
        words.setEndBefore(button);
        const text = words.getBoundingClientRect();
        const own = button.getBoundingClientRect();
        const middle = own.top + own.height / 2;
        return text.height > 0 && middle > text.top && middle < text.bottom;
      });
    expect(level).toBe(true);

    expect(await pressAndAnswer(page, `Delete the request for ${name}`, false)).toBe(question);
    expect(await requested()).toEqual([name]);
    await page.getByRole('button', { name: `Delete the request for ${name}` }).waitFor();

    expect(await pressAndAnswer(page, `Delete the request for ${name}`, true)).toBe(question);
    // said where it was done: in the section of the row that went, with the focus
    const deleted = mine.getByRole('status').filter({ hasText: `The request for “${name}” is deleted.` });
    await deleted.waitFor();
    expect(await deleted.evaluate((e) => e.ownerDocument.activeElement === e)).toBe(true);
    expect(await requested()).toEqual([]);
    await mine.getByText('None yet: ask for a book above, and we tell you when it is listed.').waitFor();
  });
});
