/**
 * My listings' editor in a real browser on a phone (issue 32, item 4): a seller edits every field
 * of a listed book with the Sell page's fields; an empty title is a plain error on its field and
 * nothing is sent, a bad ISBN is the API's error under the ISBN, and a saved title, course,
 * edition and ISBN are what the API answers afterwards. The page stays within the phone's width.
 * A buyer who carted the book before a change is told at checkout and accepts it from the cart.
 */
import { describe, expect, it } from 'vitest';
import { getBook } from '#lib/db/books.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import { cartOfTwoBooks, expectAccessible, listBook, logIn, screenshot } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';
import { png } from '#tests/helpers/photos.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

type Stored = { name: string; course: string; edition: number; ISBN: string | null; price: number };
const bookOf = async (id: string): Promise<Stored> => {
  const res = await api('GET', `/api/books/getBook/${id}`);
  expect(res.status).toBe(200);
  return (res.body as { data: Stored }).data;
};

describe('My listings: editing a book', () => {
  it('edits the title, course, edition and ISBN on a phone, with plain errors next to their fields', async () => {
    const seller = await createConfirmedUser();
    const book = await listBook(seller.token);
    const before = await bookOf(book.id);
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, seller.user.emailAddress);
    await page.goto('/listings');
    // on a phone the card's buttons say only what they do, in one row; the book's title is said to
    // a screen reader (the accessible names here), not shown on the card again and again
    const card = page.locator('li', { has: page.getByRole('button', { name: `Edit ${book.name}` }) });
    const tops = await Promise.all(
      [`Edit ${book.name}`, `Unlist ${book.name}`, `Delete for good (${book.name})`].map(async (name) => {
        const box = await card.getByRole('button', { name, exact: true }).boundingBox();
        return box?.y;
      }),
    );
    expect(tops[0]).toBeGreaterThan(0);
    expect(new Set(tops).size).toBe(1);
    // one filled button (Edit); Unlist and Delete for good are quieter (Delete in red), so a row
    // is not three loud buttons
    const look = (name: string) =>
      card.getByRole('button', { name, exact: true }).evaluate((b) => {
        const style = b.ownerDocument.defaultView?.getComputedStyle(b);
        return [style?.backgroundColor, style?.color];
      });
    expect((await look(`Edit ${book.name}`))[0]).not.toBe('rgba(0, 0, 0, 0)');
    expect((await look(`Unlist ${book.name}`))[0]).toBe('rgba(0, 0, 0, 0)');
    const remove = await look(`Delete for good (${book.name})`);
    expect(remove[0]).toBe('rgba(0, 0, 0, 0)');
    expect(remove[1]).not.toBe((await look(`Unlist ${book.name}`))[1]);
    await page.getByRole('button', { name: `Edit ${book.name}` }).click();
    const editor = page.getByRole('form', { name: `Edit ${book.name}` });
    // Save, then a quieter Cancel apart from it (they touched, both filled)
    const [saveBox, cancelBox] = [
      await editor.getByRole('button', { name: 'Save' }).boundingBox(),
      await editor.getByRole('button', { name: 'Cancel' }).boundingBox(),
    ];
    expect((cancelBox?.x ?? 0) - ((saveBox?.x ?? 0) + (saveBox?.width ?? 0))).toBeGreaterThanOrEqual(8);
    expect(
      await editor
        .getByRole('button', { name: 'Cancel' })
        .evaluate((b) => b.ownerDocument.defaultView?.getComputedStyle(b).backgroundColor),
    ).toBe('rgba(0, 0, 0, 0)');
    // the editor starts from the book as it is
    expect(await editor.getByLabel('Title').inputValue()).toBe(book.name);
    expect(await editor.getByLabel('Course (e.g. CSC 171)').inputValue()).toBe(before.course);
    expect(await editor.getByLabel('Price in dollars').inputValue()).toBe(String(before.price));

    // an empty title: a plain error on the title field, nothing sent
    const title = editor.getByLabel('Title');
    await title.fill('');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => title.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await title.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe('Enter the book’s title.');
    await expectAccessible(page);
    expect(await bookOf(book.id)).toEqual(before);

    // a wrong check digit: the API's message under the ISBN field, nothing changed
    const renamed = `Edited ${Math.random().toString(36).slice(2, 8)}`;
    await title.fill(renamed);
    const isbn = editor.getByLabel('ISBN (optional)');
    await isbn.fill('0262033845');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => isbn.getAttribute('aria-invalid')).toBe('true');
    const isbnError = await isbn.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${isbnError}"]`).textContent()).toMatch(/Not a valid ISBN/);
    expect(await title.getAttribute('aria-invalid')).toBeNull();
    expect(await bookOf(book.id)).toEqual(before);
    await screenshot(page, 'listing-editor-phone');

    // every field at once: saved, the editor closes, the list and the API show the new book
    await isbn.fill('0-262-03384-4');
    await editor.getByLabel('Course (e.g. CSC 171)').fill('MTH 235');
    await editor.getByLabel('Edition').fill('4');
    await editor.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: `Edit ${renamed}` }).waitFor();
    expect(await bookOf(book.id)).toEqual({
      ...before,
      name: renamed,
      course: 'MTH 235',
      edition: 4,
      ISBN: '9780262033848',
    });
    await expectAccessible(page);
    // nothing is wider than the phone
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
  });

  it('a buyer who carted the book before its title changed is told at checkout, buys nothing, and accepts the change (phone)', async () => {
    const [seller, buyer] = await Promise.all([createConfirmedUser(), createConfirmedUser()]);
    const book = await listBook(seller.token);
    const carted = await api('POST', '/api/user/addToCart', {
      token: buyer.token,
      body: { bookId: book.id },
    });
    expect(carted.status).toBe(200);
    const renamed = `Renamed ${Math.random().toString(36).slice(2, 8)}`;
    const edit = await api('POST', '/api/books/updateBook', {
      token: seller.token,
      body: { bookId: book.id, name: renamed },
    });
    expect(edit.status).toBe(200);

    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, buyer.user.emailAddress);
    await page.goto('/cart');
    await page.getByRole('button', { name: 'Check out' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The seller changed a book in your cart' });
    await alert.getByText(`${renamed}: The seller changed its title since you added it.`).waitFor();
    await expectAccessible(page);
    expect((await bookOf(book.id)).name).toBe(renamed);
    const listed = await api('GET', `/api/books/getBook/${book.id}`);
    expect((listed.body as { data: { status: number } }).data.status).toBe(0);
    const orders = await api('GET', '/api/user/getOrders', { token: buyer.token });
    expect((orders.body as { data: unknown[] }).data).toEqual([]);

    await alert.getByRole('button', { name: 'Accept the changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Changes accepted' }).waitFor();
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Thank you for your order' }).waitFor();
    const bought = await api('GET', '/api/user/getOrders', { token: buyer.token });
    expect((bought.body as { data: { books: { name: string }[] }[] }).data[0]?.books[0]?.name).toBe(renamed);
  });
});

describe("the seller's own book page", () => {
  it('offers what a seller can do with it, and nothing a buyer does (phone)', async () => {
    const seller = await createConfirmedUser();
    const book = await listBook(seller.token);
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, seller.user.emailAddress);
    await page.goto(`/books/${book.id}`);
    await page.getByText('Your book:', { exact: false }).waitFor();
    for (const name of [/^Add to cart/, /^Save/, /^Report/, /^Ask /, /^Send to/])
      expect(await page.getByRole('button', { name }).count(), String(name)).toBe(0);
    expect(await page.getByText('Report this listing').count()).toBe(0);
    await expectAccessible(page);
  });
});

describe('a course typed any way', () => {
  it('reads "CHEM 203" on the book page, its card on the home page and My listings (phone)', async () => {
    const seller = await createConfirmedUser();
    const name = `Course Book ${Math.random().toString(36).slice(2, 8)}`;
    const res = await api('POST', '/api/books/postBook', {
      token: seller.token,
      body: makeBookBody({ name, course: 'chem-203' }),
    });
    expect(res.status).toBe(201);
    const { id } = (res.body as { data: { id: string } }).data;
    expect((await bookOf(id)).course).toBe('chem-203'); // stored as typed; shown in one form
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, seller.user.emailAddress);
    await page.goto(`/books/${id}`);
    const course = page.locator('dt', { hasText: 'Course' }).locator('xpath=following-sibling::dd[1]');
    expect(await course.innerText()).toBe('CHEM 203');
    await page.goto('/');
    // the seller's own books are on the home page under "Your listings", as cards
    const card = page.locator('li', { has: page.getByRole('link', { name }) });
    await expect.poll(() => card.innerText(), { timeout: 10_000 }).toContain('· CHEM 203');
    await page.goto('/listings');
    const listing = page.locator('li', { has: page.getByRole('button', { name: `Edit ${name}` }) });
    expect(await listing.innerText()).toContain('· CHEM 203 ·');
    expect(await listing.innerText()).not.toContain('chem-203');
  });
});

describe('the cart with a book someone else bought', () => {
  it('checks out the rest: the unavailable book leaves the cart, and a price change is still named (phone)', async () => {
    const {
      seller,
      buyer,
      rival,
      books: [taken, repriced],
    } = await cartOfTwoBooks();
    // another student buys one first; the seller raises the other's price
    expect(
      (await api('POST', '/api/user/addToCart', { token: rival.token, body: { bookId: taken.id } })).status,
    ).toBe(200);
    expect((await api('POST', '/api/books/checkoutCart', { token: rival.token })).status).toBe(201);
    expect(
      (
        await api('POST', '/api/books/updateBook', {
          token: seller.token,
          body: { bookId: repriced.id, price: 99 },
        })
      ).status,
    ).toBe(200);

    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, buyer.user.emailAddress);
    await page.goto('/cart');
    await page
      .getByText('The book that is no longer available leaves your cart when you check out.')
      .waitFor();
    await page.getByRole('button', { name: 'Check out' }).click();
    // the taken book is gone; what is left is the price change, named, with nothing bought
    const alert = page.getByRole('alert').filter({ hasText: 'price' });
    await alert.getByRole('button', { name: 'Accept the changes' }).waitFor();
    const cart = await api('GET', '/api/user/getCartItems', { token: buyer.token });
    expect((cart.body as { data: { items: { id: string }[] } }).data.items.map((b) => b.id)).toEqual([
      repriced.id,
    ]);
    await alert.getByRole('button', { name: 'Accept the changes' }).click();
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Thank you for your order' }).waitFor();
    const orders = await api('GET', '/api/user/getOrders', { token: buyer.token });
    expect(
      (orders.body as { data: { books: { id: string; price: number }[] }[] }).data[0]?.books.map((b) => [
        b.id,
        b.price,
      ]),
    ).toEqual([[repriced.id, 99]]);
  });
});

describe('My listings: the looked-up cover', () => {
  it('takes the cover an ISBN lookup found off a book, and the book keeps no cover', async () => {
    const seller = await createConfirmedUser();
    const coverUrl = 'https://covers.openlibrary.org/b/isbn/9780134093413-L.jpg';
    const name = `Covered ${Math.random().toString(36).slice(2, 8)}`;
    const posted = await api('POST', '/api/books/postBook', {
      token: seller.token,
      body: makeBookBody({ name, ISBN: '9780134093413', coverUrl }),
    });
    expect(posted.status).toBe(201);
    const id = (posted.body as { data: { id: string } }).data.id;
    const page = await web().newPage({ width: 390, height: 844 });
    // the cover host is on the internet this machine lacks: a stand-in picture answers for it
    const picture = await png();
    await page.route(coverUrl, (route) => route.fulfill({ contentType: 'image/png', body: picture }));
    await logIn(page, seller.user.emailAddress);
    await page.goto('/listings');
    await page.getByRole('img', { name: `Cover of ${name}`, exact: true }).waitFor();
    await page.getByText('Shown with the cover Open Library has for its ISBN.').waitFor();
    await expectAccessible(page);
    // it asks first: the cover is not brought back
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.accept();
    });
    await page.getByRole('button', { name: `Take the looked-up cover off ${name}` }).click();
    await expect
      .poll(() => asked)
      .toEqual([
        `Take the Open Library cover off “${name}”? The book then shows a plain cover with its title until you add a photo.`,
      ]);
    await page
      .getByRole('button', { name: `Take the looked-up cover off ${name}` })
      .waitFor({ state: 'detached' });
    expect(await page.getByRole('img', { name: `Cover of ${name}`, exact: true }).count()).toBe(0);
    const stored = await api('GET', `/api/books/getBook/${id}`);
    expect(stored.status).toBe(200);
    expect((stored.body as { data: { coverUrl?: string } }).data.coverUrl).toBeUndefined();
    expect((await getBook(id))?.coverUrl ?? null).toBeNull();
  });
});
