/**
 * The owner's dashboard in a real browser (phone and desktop): "Unlist old books" first shows how
 * many books and the oldest few would be unlisted, changing nothing, and unlists only once
 * confirmed; each hand-over queue item shows its age, photo slot and a link to the book.
 */
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { getBook } from '#lib/db/books.ts';
import { createConfirmedUser, type TestAccount } from '#tests/helpers/accounts.ts';
import { daysBefore, seedBook } from '#tests/helpers/books.ts';
import { expectAccessible, logIn, screenshot } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';
import { seedOrder } from '#tests/helpers/orders.ts';
import { png } from '#tests/helpers/photos.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();
let owner: TestAccount;
let seller: TestAccount;

beforeAll(async () => {
  owner = await createConfirmedUser({ permissionType: 2 });
  seller = await createConfirmedUser();
});

const VIEWPORTS = [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const;

describe('the unlisting preview', () => {
  for (const [name, viewport] of VIEWPORTS) {
    it(`shows a count and the oldest books before anything changes, and unlists only once confirmed (${name})`, async () => {
      const title = `Ancient ${name} ${Math.random().toString(36).slice(2, 8)}`;
      const stale = await seedBook(seller.user.id, { date: daysBefore(new Date(), 3640), name: title });
      const page = await web().newPage(viewport);
      await logIn(page, owner.user.emailAddress);
      await page.goto('/dashboard?tab=owner');
      // nothing that old: the preview says so and offers nothing to confirm
      await page.getByLabel('Unlist listed books older than this many days').fill('3650');
      await page.getByRole('button', { name: 'Preview old books' }).click();
      await page
        .getByRole('region', { name: 'No old books' })
        .getByRole('status')
        .filter({ hasText: /is still listed: there is nothing to unlist\.$/ })
        .waitFor();
      expect(await page.getByRole('button', { name: /^Unlist th/ }).count()).toBe(0);
      await page.getByLabel('Unlist listed books older than this many days').fill('3600');
      await page.getByRole('button', { name: 'Preview old books' }).click();
      const preview = page.getByRole('region', { name: 'Unlist old books?' });
      await preview
        .getByRole('status')
        .filter({ hasText: /would be unlisted/ })
        .waitFor();
      const said = (await preview.getByRole('status').textContent()) ?? '';
      const count = Number(/(\d+) books? listed before/.exec(said)?.[1]);
      expect(count, said).toBeGreaterThanOrEqual(1);
      expect(said).toContain('Nothing has changed yet');
      // days read as on every other page ("Nov 3, 2026"), not as stored ("2026-11-03")
      expect(said).toMatch(/listed before [A-Z][a-z]{2} \d{1,2}, \d{4} would be unlisted/);
      await preview.getByRole('link', { name: title }).waitFor();
      expect(await preview.getByRole('listitem').filter({ hasText: title }).textContent()).toMatch(
        /, listed [A-Z][a-z]{2} \d{1,2}, \d{4} by /,
      );
      // the preview changed nothing
      expect((await getBook(stale.id))?.status).toBe(0);
      await expectAccessible(page);
      if (name === 'phone') await screenshot(page, 'dashboard-unlist-preview-phone');

      // changing the age drops the preview: what is confirmed is what was shown
      await page.getByLabel('Unlist listed books older than this many days').fill('3599');
      expect(await page.getByRole('button', { name: /^Unlist th/ }).count()).toBe(0);
      expect((await getBook(stale.id))?.status).toBe(0);
      await page.getByLabel('Unlist listed books older than this many days').fill('3600');
      await page.getByRole('button', { name: 'Preview old books' }).click();
      // one book is "this book", more are "these N books"
      const unlist = page.getByRole('button', { name: /^Unlist (this book|these \d+ books)$/ });
      expect(await unlist.textContent()).toBe(
        count === 1 ? 'Unlist this book' : `Unlist these ${count} books`,
      );
      await unlist.click();
      await page
        .getByRole('status')
        .filter({ hasText: /^(1 book was|\d+ books were) unlisted\.$/ })
        .waitFor();
      expect((await getBook(stale.id))?.status).toBe(5);
    });
  }
});

describe('the hand-over queues', () => {
  it('show each item with its age, its picture and a link to the book', async () => {
    const buyer = await createConfirmedUser();
    // a title of its own: other tests' orders of the default title wait in the same queue
    const name = `Queued ${ulid()}`;
    // a book without photos whose ISBN lookup found a cover: the cover is its picture here too
    const coverUrl = 'https://covers.openlibrary.org/b/isbn/9780134093413-L.jpg';
    const order = await seedOrder(buyer.user.id, [{ sellerId: seller.user.id, status: 1, name, coverUrl }]);
    const book = order.books[0];
    if (!book) throw new Error('no book seeded');
    const page = await web().newPage({ width: 390, height: 844 });
    // the cover host is on the internet this machine lacks: a stand-in picture answers for it
    const picture = await png();
    await page.route(coverUrl, (route) => route.fulfill({ contentType: 'image/png', body: picture }));
    await logIn(page, owner.user.emailAddress);
    await page.goto('/dashboard?tab=queues');
    const item = page.getByRole('article', { name: book.name });
    await item.getByText(/^Waiting (less than a minute|\d+ minutes?) \(/).waitFor();
    expect(await item.getByText(/^Waiting /).textContent()).toMatch(
      / \(bought [A-Z][a-z]{2} \d{1,2}, \d{4}\)$/,
    );
    expect(await item.getByRole('link', { name: book.name }).getAttribute('href')).toBe(
      `/books/${encodeURIComponent(book.id)}`,
    );
    expect(await item.getByRole('img', { name: `Cover of ${name}`, exact: true }).getAttribute('src')).toBe(
      coverUrl,
    );
    await expectAccessible(page);
  });
});

describe('a purchase whose seller is suspended', () => {
  it('says so in the queue, asks before cancelling, and the cancel unlists the book', async () => {
    const buyer = await createConfirmedUser();
    const suspended = await createConfirmedUser({ firstName: 'Sid' });
    const name = `Suspended seller ${ulid()}`;
    const order = await seedOrder(buyer.user.id, [{ sellerId: suspended.user.id, status: 1, name }]);
    const book = order.books[0];
    if (!book) throw new Error('no book seeded');
    const suspend = await api('PUT', '/api/dashboard/suspendUser', {
      token: owner.token,
      body: { userId: suspended.user.id, reason: 'Scam messages.' },
    });
    expect(suspend.status).toBe(200);
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, owner.user.emailAddress);
    await page.goto('/dashboard?tab=queues');
    const item = page.getByRole('article', { name });
    await item
      .getByText(
        'Suspended: cannot sign in or bring the book. Cancelling unlists the book instead of relisting it.',
      )
      .waitFor();
    // cancelling is the exception: folded away until asked for, Confirm is what shows
    const reason = item.getByLabel(`Reason to cancel the purchase of ${name}`);
    expect(await reason.isVisible()).toBe(false);
    await item.getByText('Cancel this purchase', { exact: false }).click();
    await reason.fill('The seller is suspended.');
    const questions: string[] = [];
    page.once('dialog', (d) => {
      questions.push(d.message());
      void d.dismiss();
    });
    await item.getByRole('button', { name: `Cancel the purchase of ${name}` }).click();
    await expect.poll(() => questions.length).toBe(1);
    expect(questions[0]).toBe(
      `Cancel the purchase of ${name}? Buyer and seller are told your reason; the book is unlisted (its seller is suspended).`,
    );
    // dismissed: nothing changed
    expect((await getBook(book.id))?.status).toBe(1);
    page.once('dialog', (d) => void d.accept());
    await item.getByRole('button', { name: `Cancel the purchase of ${name}` }).click();
    await expect.poll(() => item.count()).toBe(0);
    expect((await getBook(book.id))?.status).toBe(5);
    await expectAccessible(page);
  });
});

describe('the orders tab', () => {
  it('names each book, its seller and where it stands, and reaches older orders a page at a time', async () => {
    const buyer = await createConfirmedUser();
    const tag = ulid();
    // the oldest of 21: the newest 20 fill the first page (a page is 20 orders)
    const oldest = await seedOrder(buyer.user.id, [
      { sellerId: seller.user.id, status: 1, name: `Oldest ${tag}` },
    ]);
    for (let i = 0; i < 20; i++) {
      await seedOrder(buyer.user.id, [{ sellerId: seller.user.id, status: 2, name: `Newer ${i} ${tag}` }]);
    }
    const book = oldest.books[0];
    if (!book) throw new Error('no book seeded');
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, owner.user.emailAddress);
    await page.goto('/dashboard?tab=orders');
    const table = page.getByRole('region', { name: 'Orders table' });
    const newest = table.getByRole('cell').filter({ hasText: `Newer 19 ${tag}` });
    await newest.waitFor();
    const sellerName = `${seller.user.firstName} ${seller.user.lastName}`;
    expect(await newest.textContent()).toBe(`Newer 19 ${tag} from ${sellerName}: checked, buyer charged`);
    expect(await table.getByRole('link', { name: `Oldest ${tag}` }).count()).toBe(0);
    // on a phone each order is a card: nothing scrolls sideways, and every cell is named by its column
    const sideways = await table.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(sideways).toBe(0);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    const labels = await newest.evaluate((td) =>
      [...(td.parentElement?.children ?? [])].map(
        (c) => c.ownerDocument.defaultView?.getComputedStyle(c, '::before').content,
      ),
    );
    expect(labels).toEqual(['Date', 'Buyer', 'Books', 'Total'].map((l) => `"${l}: " / ""`));
    // ... shown to the eye only: a cell's accessible name is its value, its header names its column
    const books = `Newer 19 ${tag} from ${sellerName}: checked, buyer charged`;
    expect(await table.getByRole('cell', { name: books, exact: true }).count()).toBe(1);
    // the header row stays for screen readers
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'Date',
      'Buyer',
      'Books',
      'Total',
    ]);
    // other tests' orders may be newer still: older pages until the oldest of ours shows
    const older = page.getByRole('button', { name: 'Older orders' });
    for (let i = 0; i < 20 && (await table.getByRole('link', { name: `Oldest ${tag}` }).count()) === 0; i++) {
      const before = await table.getByRole('row').count();
      await older.click();
      await expect.poll(() => table.getByRole('row').count()).toBeGreaterThan(before);
    }
    const link = table.getByRole('link', { name: `Oldest ${tag}` });
    expect(await link.getAttribute('href')).toBe(`/books/${encodeURIComponent(book.id)}`);
    expect(
      await table
        .getByRole('cell')
        .filter({ hasText: `Oldest ${tag}` })
        .textContent(),
    ).toBe(`Oldest ${tag} from ${sellerName}: bought, waiting for the hand-over check`);
    // every row of the pages read so far is still shown
    expect(
      await table
        .getByRole('cell')
        .filter({ hasText: new RegExp(`Newer \\d+ ${tag}`) })
        .count(),
    ).toBe(20);
    await expectAccessible(page);
  });
});
