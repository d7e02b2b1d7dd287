/**
 * Selling without surprises in a real browser (issue 32, item 4), on a phone and a desktop: an
 * empty price is an error on the price field and nothing is posted (never a $0 listing by
 * accident); "Give it away for free" posts 0 on purpose; a new error never stands beside the last
 * success line. The ISBN fills the form, typed or scanned from its barcode with Chromium's fake
 * camera fed a generated EAN-13 video (issue 33, items 1 and 2). Stored state is re-read over the API.
 */
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { getBook } from '#lib/db/books.ts';
import { bookKey } from '#lib/db/keys.ts';
import { recordSale } from '#lib/db/sale-prices.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { chromiumFilming } from '#tests/helpers/barcode.ts';
import { expectAccessible, goByNav, logIn, screenshot, signedIn } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';
import { setStored } from '#tests/helpers/stored.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

const VIEWPORTS = [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const;

type Posted = {
  id: string;
  name: string;
  coverUrl?: string;
  price: number;
  author?: string;
  edition: number;
  course: string;
  ISBN: string | null;
};
const postsOf = async (token: string): Promise<Posted[]> => {
  const res = await api('GET', '/api/books/getUsersPosts', { token });
  expect(res.status).toBe(200);
  return (res.body as { data: Posted[] }).data;
};

/** A new seller's phone in `browser` (one with a fake camera), the camera allowed for the app. */
const phoneWithCamera = async (browser: Browser) => {
  const seller = await createConfirmedUser();
  const context = await browser.newContext({
    baseURL: web().url,
    viewport: { width: 390, height: 844 },
    permissions: ['camera'],
  });
  return { seller, page: await context.newPage() };
};

const fillBook = async (page: Page, title: string) => {
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Course (e.g. CSC 171)').fill('CSC 171');
};

describe('the sell page', () => {
  it.each(VIEWPORTS)('never posts free by accident; free is a choice (%s)', async (name, viewport) => {
    const { account: seller, page } = await signedIn(web(), viewport);
    await page.goto('/sell');
    const tag = Math.random().toString(36).slice(2, 8);

    // An empty price: a plain error on the price field, nothing posted.
    await fillBook(page, `Priceless ${tag}`);
    await page.getByRole('button', { name: 'List the book' }).click();
    const price = page.getByLabel('Price in dollars');
    await expect.poll(() => price.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await price.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/Enter a price in dollars/);
    await expectAccessible(page);
    await screenshot(page, `sell-price-required-${name}`);
    expect(await postsOf(seller.token)).toEqual([]);

    // A price: listed at that price, with a success line.
    await price.fill('12.5');
    await page.getByRole('button', { name: 'List the book' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Priceless ${tag}` })
      .waitFor();
    expect((await postsOf(seller.token)).map((b) => [b.name, b.price])).toEqual([[`Priceless ${tag}`, 12.5]]);

    // The next attempt fails (empty price again): the last success line is gone beside the error.
    await fillBook(page, `Second ${tag}`);
    await page.getByRole('button', { name: 'List the book' }).click();
    await expect.poll(() => price.getAttribute('aria-invalid')).toBe('true');
    expect(
      await page
        .getByRole('status')
        .filter({ hasText: `Priceless ${tag}` })
        .count(),
    ).toBe(0);
    expect(await postsOf(seller.token)).toHaveLength(1);

    // Free on purpose: the price field goes away and 0 is posted.
    await page.getByLabel('Give it away for free').check();
    expect(await page.getByLabel('Price in dollars').count()).toBe(0);
    await page.getByRole('button', { name: 'List the book' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Second ${tag}` })
      .waitFor();
    const stored = await postsOf(seller.token);
    const free = stored.find((b) => b.name === `Second ${tag}`);
    expect(free?.price).toBe(0);
    await expectAccessible(page);
    // shown as what it is: "Free", not "$0.00"
    await page.goto(`/books/${free?.id}`);
    await page.getByRole('heading', { level: 1, name: `Second ${tag}` }).waitFor();
    expect(await page.locator('.book-price .price').textContent()).toBe('Free');
  });

  it('keeps what was typed through a reload and another page until the book is listed; Start over and logging out clear it (phone)', async () => {
    const { account: seller, page } = await signedIn(web(), 'phone');
    await page.goto('/sell');
    const title = `Draft ${randomBytes(3).toString('hex')}`;
    await fillBook(page, title);
    await page.getByLabel('Price in dollars').fill('12.50');
    await page.getByLabel('Comments (optional)').fill('Notes in pencil.');
    const kept = page.getByText('The form has what you typed last time (photos are chosen again).');
    const fields = () =>
      Promise.all(
        ['Title', 'Course (e.g. CSC 171)', 'Price in dollars', 'Comments (optional)'].map((l) =>
          page.getByLabel(l).inputValue(),
        ),
      );
    const typed = [title, 'CSC 171', '12.50', 'Notes in pencil.'];

    // a reload (a phone dropping the tab does the same), then another page and back: all still there
    await page.reload();
    await kept.waitFor();
    expect(await fields()).toEqual(typed);
    await goByNav(page, 'Books');
    await goByNav(page, 'Sell');
    await kept.waitFor();
    expect(await fields()).toEqual(typed);
    expect(await postsOf(seller.token)).toEqual([]);
    await expectAccessible(page);

    // an empty search's "Sell yours" starts a new book from the search, and offers the kept one back
    await page.goto('/sell?name=Another%20book');
    await page.getByText(`You had started another book, “${title}”.`).waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe('Another book');
    expect(await kept.count()).toBe(0);
    // the address no longer carries the search: a reload keeps what the form holds
    expect(new URL(page.url()).search).toBe('');
    await page.getByRole('button', { name: 'Go back to it' }).click();
    await kept.waitFor();
    expect(await fields()).toEqual(typed);
    await page.reload();
    await kept.waitFor();
    expect(await fields()).toEqual(typed);

    // Start over empties the form, and a reload does not bring it back
    await page.getByRole('button', { name: 'Start over' }).click();
    expect(await fields()).toEqual(['', '', '', '']);
    expect(await kept.count()).toBe(0);
    await page.reload();
    await page.getByLabel('Title').waitFor();
    expect(await fields()).toEqual(['', '', '', '']);
    expect(await kept.count()).toBe(0);

    // typed again and listed: the draft goes with it
    await fillBook(page, title);
    await page.getByLabel('Price in dollars').fill('12.50');
    await page.getByRole('button', { name: 'List the book' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `“${title}” is listed` })
      .waitFor();
    expect((await postsOf(seller.token)).map((b) => [b.name, b.price])).toEqual([[title, 12.5]]);
    await page.reload();
    await page.getByLabel('Title').waitFor();
    expect(await fields()).toEqual(['', '', '', '']);
    expect(await kept.count()).toBe(0);

    // a draft left behind at logout does not stay on the browser for the next person
    await page.getByLabel('Title').fill('Left behind');
    const drafts = () =>
      page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('cb_draft:')).length);
    await expect.poll(drafts).toBe(1);
    await goByNav(page, 'Log out', 'button');
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    expect(await drafts()).toBe(0);
  });

  it('fills the form from a typed ISBN with what copies sold for, and from an empty search', async () => {
    // Biochemistry in the ISBN stand-in (scripts/local/isbn-fixtures.ts), edition "7th ed.", an ISBN no
    // other test sells (the e2e table is shared, and the every-campus hint counts every test's sales);
    // three completed sales on some campus give the every-campus hint.
    const isbn13 = '9781429229364';
    for (const [i, cents] of [2000, 3000, 4000].entries())
      await recordSale(isbn13, null, {
        at: new Date(Date.now() - i * 1000).toISOString(),
        bookId: `e2e-sale-${i}`,
        cents,
      });
    const { account: seller, page } = await signedIn(web(), 'phone');

    // "Sell yours" from an empty search for a course carries the course in the address.
    await page.goto(`/sell?course=${encodeURIComponent('PHYS 101')}`);
    expect(await page.getByLabel('Course (e.g. CSC 171)').inputValue()).toBe('PHYS 101');
    // photos first: the ISBN (which fills the rest in), then the photos, then the title and the rest
    const order = await page.locator('form label').allInnerTexts();
    const at = (label: RegExp) => order.findIndex((t) => label.test(t));
    expect([at(/^ISBN/), at(/^Photos/), at(/^Title/)]).toEqual([0, 1, 2]);

    await page.getByLabel('ISBN (optional)').fill('978-1-4292-2936-4');
    const note = page.getByRole('status').filter({ hasText: 'Found “Biochemistry”' });
    await note.waitFor();
    expect(await note.textContent()).toContain(
      '3 copies sold on all campuses for $20.00–$40.00 (median $30.00).',
    );
    expect(await page.getByLabel('Title').inputValue()).toBe('Biochemistry');
    expect(await page.getByLabel('Author (optional)').inputValue()).toBe(
      'Jeremy M. Berg, John L. Tymoczko, Lubert Stryer',
    );
    expect(await page.getByLabel('Edition').inputValue()).toBe('7');
    await expectAccessible(page);
    await screenshot(page, 'sell-isbn-lookup-phone');
    await page.getByLabel('Price in dollars').fill('28');
    await page.getByRole('button', { name: 'List the book' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Biochemistry' })
      .filter({ hasText: 'is listed' })
      .waitFor();
    // listed: the moment to tell the class, without going to the book's page first
    await page.getByRole('button', { name: 'Share Biochemistry' }).waitFor();
    expect(await postsOf(seller.token)).toMatchObject([
      {
        name: 'Biochemistry',
        author: 'Jeremy M. Berg, John L. Tymoczko, Lubert Stryer',
        edition: 7,
        course: 'PHYS 101',
        price: 28,
        ISBN: isbn13,
      },
    ]);

    // A title typed first is kept; an ISBN nobody knows says so and fills nothing.
    await page.getByLabel('Title').fill('My own title');
    await page.getByLabel('ISBN (optional)').fill('9781429229364');
    await page.getByRole('status').filter({ hasText: 'Found' }).waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe('My own title');
    await page.getByLabel('ISBN (optional)').fill('9780000000002');
    await page.getByRole('status').filter({ hasText: 'No book data for this ISBN' }).waitFor();
    expect(await postsOf(seller.token)).toHaveLength(1);
  });

  it('scans the ISBN barcode with the camera, fills the form and the cover, and posts the book (phone)', async () => {
    // Chemistry: The Central Science in the ISBN stand-in, "14th edition", an ISBN no other test sells
    // (the e2e table is shared). Chromium on Linux has no BarcodeDetector: the ZXing ponyfill reads it.
    const isbn13 = '9780134414232';
    const { browser, close } = await chromiumFilming(isbn13);
    try {
      const { seller, page } = await phoneWithCamera(browser);
      const blocked: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
      });
      // The cover host is on the internet this machine lacks: a stand-in picture answers for it, so
      // what is tested is that the page asks for it and the CSP lets it in.
      const cover = await sharp({
        create: { width: 120, height: 180, channels: 3, background: '#2f6f8f' },
      })
        .png()
        .toBuffer();
      await page.route(`https://covers.openlibrary.org/b/isbn/${isbn13}-L.jpg`, (route) =>
        route.fulfill({ contentType: 'image/png', body: cover }),
      );
      await logIn(page, seller.user.emailAddress);
      await page.goto('/sell');
      await page.getByRole('button', { name: 'Scan the barcode' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Read ISBN ${isbn13}.` })
        .waitFor({ timeout: 30_000 });
      expect(await page.getByLabel('ISBN (optional)').inputValue()).toBe(isbn13);
      // The camera is let go, the Scan button is back and the focus is on the ISBN field.
      expect(await page.evaluate(`document.querySelector('.scan video').srcObject === null`)).toBe(true);
      expect(await page.getByRole('button', { name: 'Scan the barcode' }).count()).toBe(1);
      expect(await page.evaluate(`document.activeElement.getAttribute('name')`)).toBe('ISBN');
      // The decoder's wasm came from the app's own origin.
      expect(
        await page.evaluate(
          `performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('.wasm'))`,
        ),
      ).toEqual([expect.stringMatching(new RegExp(`^${web().url}/assets/zxing_reader-[\\w-]+\\.wasm$`))]);

      // The lookup fills the rest, and the cover shows.
      await page.getByRole('status').filter({ hasText: 'Found “Chemistry”' }).waitFor();
      expect(await page.getByLabel('Title').inputValue()).toBe('Chemistry');
      expect(await page.getByLabel('Author (optional)').inputValue()).toBe(
        'Theodore L. Brown, H. Eugene LeMay, Bruce E. Bursten, Catherine J. Murphy',
      );
      expect(await page.getByLabel('Edition').inputValue()).toBe('14');
      await page.getByText('Cover from Open Library').waitFor();
      await expect
        .poll(() => page.evaluate(`document.querySelector('.lookup-cover img').naturalWidth`))
        .toBe(120);
      expect(await page.getByRole('img', { name: 'Cover of “Chemistry”' }).count()).toBe(1);
      await expectAccessible(page);
      await screenshot(page, 'sell-barcode-scanned-phone');

      await page.getByLabel('Course (e.g. CSC 171)').fill('CHEM 131');
      await page.getByLabel('Price in dollars').fill('45');
      await page.getByRole('button', { name: 'List the book' }).click();
      await page.getByRole('status').filter({ hasText: 'is listed' }).waitFor();
      expect(await postsOf(seller.token)).toMatchObject([
        {
          name: 'Chemistry',
          author: 'Theodore L. Brown, H. Eugene LeMay, Bruce E. Bursten, Catherine J. Murphy',
          edition: 14,
          course: 'CHEM 131',
          price: 45,
          ISBN: isbn13,
        },
      ]);
      expect(blocked).toEqual([]);
    } finally {
      await close();
    }
  });

  it('keeps a typed ISBN’s cover with the book: its picture on the card and the book page until a photo is added', async () => {
    // Campbell Biology in the ISBN stand-in (a cover on Open Library's host); a campus nobody else
    // uses, so the student's listing holds only this seller's books.
    const isbn13 = '9780134093413';
    const coverUrl = `https://covers.openlibrary.org/b/isbn/${isbn13}-L.jpg`;
    const campus = `c${randomBytes(5).toString('hex')}.edu`;
    const at = () => createConfirmedUser({ emailAddress: `s-${randomBytes(5).toString('hex')}@${campus}` });
    const [seller, student] = await Promise.all([at(), at()]);
    // The cover host is on the internet this machine lacks: a stand-in picture answers for it.
    const picture = await sharp({ create: { width: 120, height: 180, channels: 3, background: '#7a4f2f' } })
      .png()
      .toBuffer();
    const withCover = async (viewport: { width: number; height: number }) => {
      const page = await web().newPage(viewport);
      await page.route(coverUrl, (route) => route.fulfill({ contentType: 'image/png', body: picture }));
      return page;
    };
    const loadedWidth = (page: Page, name: string) =>
      page
        .getByRole('img', { name, exact: true })
        .evaluate((img) => (img as { naturalWidth: number }).naturalWidth);

    const page = await withCover({ width: 1280, height: 800 });
    await logIn(page, seller.user.emailAddress);
    await page.goto('/sell');
    await page.getByLabel('ISBN (optional)').fill('978-0-13-409341-3');
    await page.getByRole('status').filter({ hasText: 'Found “Campbell Biology”' }).waitFor();
    await page.getByText('your book’s picture until you add photos').waitFor();
    await page.getByLabel('Course (e.g. CSC 171)').fill('BIO 101');
    await page.getByLabel('Price in dollars').fill('60');
    await page.getByRole('button', { name: 'List the book' }).click();
    await page.getByRole('status').filter({ hasText: 'is listed' }).waitFor();
    const [posted] = await postsOf(seller.token);
    expect(posted).toMatchObject({ name: 'Campbell Biology', ISBN: isbn13, coverUrl });
    expect((await getBook(posted?.id ?? ''))?.coverUrl).toBe(coverUrl);

    // The book page shows the cover, lazily, in a box of fixed size.
    await page.goto(`/books/${posted?.id}`);
    const onPage = page.getByRole('img', { name: 'Cover of Campbell Biology', exact: true });
    await onPage.waitFor();
    expect(await onPage.getAttribute('loading')).toBe('lazy');
    expect([await onPage.getAttribute('width'), await onPage.getAttribute('height')]).toEqual(['160', '240']);
    await expect.poll(() => loadedWidth(page, 'Cover of Campbell Biology')).toBe(120);
    await expectAccessible(page);

    // Declined on the form: the next book is posted without it.
    await page.goto('/sell');
    await page.getByLabel('ISBN (optional)').fill(isbn13);
    await page.getByRole('button', { name: 'Don’t use it' }).click();
    await page.getByText('The cover will not be shown with your book.').waitFor();
    await expectAccessible(page);
    await page.getByLabel('Course (e.g. CSC 171)').fill('BIO 102');
    await page.getByLabel('Price in dollars').fill('55');
    await page.getByRole('button', { name: 'List the book' }).click();
    await page.getByRole('status').filter({ hasText: 'is listed' }).waitFor();
    const declined = (await postsOf(seller.token)).find((b) => b.course === 'BIO 102');
    expect(declined?.coverUrl).toBeUndefined();
    expect((await getBook(declined?.id ?? ''))?.coverUrl).toBeUndefined();

    // A student of the campus sees the cover on the card, the generated cover on the other book.
    const phone = await withCover({ width: 390, height: 844 });
    await logIn(phone, student.user.emailAddress);
    await phone.goto('/');
    // The reload first lists every campus (no session yet), then the student's once the refresh
    // cookie has answered: count only in the settled campus listing.
    await phone.getByRole('heading', { level: 2, name: /at your campus|at c[0-9a-f]+\.edu/ }).waitFor();
    await phone.locator('ul.books.grid[aria-busy="false"]').waitFor();
    const card = phone.locator('ul.books.grid .card').filter({ hasText: 'BIO 101' });
    await card.getByRole('img', { name: 'Cover of Campbell Biology', exact: true }).waitFor();
    await expect.poll(() => loadedWidth(phone, 'Cover of Campbell Biology')).toBe(120);
    // only the campus's two books: the declined one has the generated cover (polled: the grid of
    // every campus may show for a moment while the session comes back)
    await expect.poll(() => phone.locator('ul.books.grid .cover').count()).toBe(1);
    await expectAccessible(phone);
    await screenshot(phone, 'card-looked-up-cover-phone');

    // A photo of the seller's own wins over the cover.
    await setStored(bookKey(posted?.id ?? ''), { photos: [{ id: 'p-cover-e2e' }], photoVersion: 1 });
    await phone.reload();
    await card.getByRole('img', { name: 'The book Campbell Biology', exact: true }).waitFor();
    expect(await phone.getByRole('img', { name: 'Cover of Campbell Biology' }).count()).toBe(0);
  });

  it('says a barcode that is not a book’s is not, and Cancel lets the camera go (phone)', async () => {
    // A valid EAN-13 outside the 978/979 book prefixes (a grocery product's).
    const { browser, close } = await chromiumFilming('4006381333931');
    try {
      const { seller, page } = await phoneWithCamera(browser);
      await logIn(page, seller.user.emailAddress);
      await page.goto('/sell');
      await page.getByRole('button', { name: 'Scan the barcode' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'That is not a book’s ISBN barcode' })
        .waitFor({ timeout: 30_000 });
      // Still scanning, the camera on, the focus on Cancel; nothing filled in.
      expect(await page.evaluate(`document.querySelector('.scan video').srcObject !== null`)).toBe(true);
      expect(await page.evaluate(`document.activeElement.textContent`)).toBe('Cancel');
      expect(await page.getByLabel('ISBN (optional)').inputValue()).toBe('');
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('status').filter({ hasText: 'Scanning stopped' }).waitFor();
      expect(await page.evaluate(`document.querySelector('.scan video').srcObject === null`)).toBe(true);
      expect(await page.evaluate(`document.activeElement.getAttribute('name')`)).toBe('ISBN');
      expect(await page.getByLabel('ISBN (optional)').inputValue()).toBe('');
    } finally {
      await close();
    }
  });

  it('says in one sentence when there is no camera, and typing still works (desktop)', async () => {
    // The stack's Chromium has no camera (no fake device).
    const { page } = await signedIn(web(), 'desktop');
    await page.goto('/sell');
    await page.getByRole('button', { name: 'Scan the barcode' }).click();
    const said = page.getByRole('status').filter({ hasText: 'type the ISBN instead.' });
    await said.waitFor();
    expect(await said.textContent()).toMatch(
      /^(No camera could be used|The camera is not allowed for this site): type the ISBN instead\.$/,
    );
    expect(await page.evaluate(`document.activeElement.getAttribute('name')`)).toBe('ISBN');
    await page.getByLabel('ISBN (optional)').fill('9780134414232');
    await page.getByRole('status').filter({ hasText: 'Found “Chemistry”' }).waitFor();
    await expectAccessible(page);
  });
});
