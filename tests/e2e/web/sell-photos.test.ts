/**
 * Photos chosen in the Sell form and the home page's "Your listings" row (issue 32, item 4), in a
 * real browser against the e2e tier's API and S3 emulator (its uploads are processed as deployed).
 * On a phone: two photos chosen with the book are uploaded by "List the book" with a progress line
 * and are on the stored book, processed; a photo the service's check refuses is named as soon as
 * it is checked, not after the minute the wait gives up at. On a desktop: a photo the photo store
 * cannot take does not lose the book; the success line names it and its link to My listings adds
 * it again there. The
 * seller's own book shows in "Your listings" on the home page while the grid still leaves it out.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import { expectAccessible, logIn, screenshot, signedIn } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';
import { jpegWithGps } from '#tests/helpers/photos.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

type Photo = { id: string; url: string; thumbnailUrl: string };
type Stored = { id: string; name: string; price: number; photos: Photo[] };

const postsOf = async (token: string): Promise<Stored[]> => {
  const res = await api('GET', '/api/books/getUsersPosts', { token });
  expect(res.status).toBe(200);
  return (res.body as { data: Stored[] }).data;
};

const bookOf = async (id: string): Promise<Stored> => {
  const res = await api('GET', `/api/books/getBook/${id}`);
  expect(res.status).toBe(200);
  return (res.body as { data: Stored }).data;
};

/** A processed photo: the service's own URLs for the photo and its thumbnail, both served. */
const expectProcessed = async (photo: Photo | undefined) => {
  expect(photo?.url).toMatch(/^http/);
  expect(photo?.thumbnailUrl).toMatch(/^http/);
  expect(photo?.thumbnailUrl).not.toBe(photo?.url);
  for (const url of [photo?.url, photo?.thumbnailUrl]) expect((await fetch(String(url))).status).toBe(200);
};

/** Keeps every text a status line of the page shows (a progress line may be gone before it is polled). */
const recordStatuses = (page: Page) =>
  page.evaluate(`(() => {
    window.__statuses = [];
    const seen = () => document.querySelectorAll('[role="status"]').forEach((el) => {
      const text = el.textContent.trim();
      if (text && window.__statuses.at(-1) !== text) window.__statuses.push(text);
    });
    new MutationObserver(seen).observe(document.body, { subtree: true, childList: true, characterData: true });
  })()`);
const statusesOf = (page: Page) => page.evaluate('window.__statuses') as Promise<string[]>;

const file = async (name: string, width: number, height: number) => ({
  name,
  mimeType: 'image/jpeg',
  buffer: await jpegWithGps(width, height),
});
type Jpeg = Awaited<ReturnType<typeof file>>;

/**
 * Chooses `files` in the Sell form's photo field and waits for the last one's preview, photo `shown`
 * of the form's photos.
 */
const choosePhotos = async (page: Page, files: Jpeg[], shown: number) => {
  await page.getByLabel('Photos (optional)').setInputFiles(files);
  await page.getByRole('img', { name: `Photo ${shown}: ${files.at(-1)?.name}` }).waitFor();
};

const fillBook = async (page: Page, title: string) => {
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Course (e.g. CSC 171)').fill('CSC 171');
  await page.getByLabel('Price in dollars').fill('15');
};

/** A file the check refuses: text sent as image/jpeg. */
const notAnImage = (name: string) => ({
  name,
  mimeType: 'image/jpeg',
  buffer: Buffer.from('this is not a photo\n'.repeat(50)),
});

describe('photos in the Sell form', () => {
  it('keeps the same photo chosen twice once, and a removal leaves no stale tile (photos a phone names alike)', async () => {
    const { page } = await signedIn(web(), 'phone');
    await page.goto('/sell');
    // files on disk, as a phone's picker hands them over: the same file keeps its modification time
    // (a buffer given to Playwright gets a fresh one each time, which would make it another file)
    const dir = mkdtempSync(path.join(tmpdir(), 'same-name-'));
    const same = path.join(dir, 'a', 'image.jpg');
    const other = path.join(dir, 'b', 'image.jpg');
    mkdirSync(path.dirname(same));
    mkdirSync(path.dirname(other));
    writeFileSync(same, (await file('image.jpg', 900, 600)).buffer);
    writeFileSync(other, (await file('image.jpg', 600, 900)).buffer);
    await page.getByLabel('Photos (optional)').setInputFiles([same, same, other]);
    await page.getByRole('img', { name: 'Photo 2: image.jpg' }).waitFor();
    const tiles = page.locator('ul.gallery > li');
    expect(await tiles.count()).toBe(2);
    await page.getByRole('button', { name: 'Remove photo 1 (image.jpg)' }).click();
    await expect.poll(() => tiles.count()).toBe(1);
    expect(await page.getByRole('button', { name: /^Remove photo/ }).count()).toBe(1);
    await page.getByRole('img', { name: 'Photo 1: image.jpg' }).waitFor();
  });

  it('refuses a file that is not a photo when it is picked, naming it, and lists the book with the real photo only', async () => {
    const { account: seller, page } = await signedIn(web(), 'phone');
    await page.goto('/sell');
    const title = `Picked ${randomBytes(3).toString('hex')}`;
    await fillBook(page, title);
    const notes = { name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n') };
    await page.getByLabel('Photos (optional)').setInputFiles([notes, await file('front.jpg', 900, 600)]);
    await page.getByRole('img', { name: 'Photo 1: front.jpg' }).waitFor();
    const alert = page.getByRole('alert');
    expect(await alert.textContent()).toBe('notes.pdf is not a photo: choose a JPEG, PNG or WebP image.');
    expect(await page.locator('ul.gallery > li').count()).toBe(1);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'List the book' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `“${title}” is listed with 1 photo` })
      .waitFor({ timeout: 60_000 });
    const [posted] = (await postsOf(seller.token)).filter((b) => b.name === title);
    expect(posted?.photos).toHaveLength(1);
  });

  it('lists the book and uploads its two photos in one flow, with progress (phone)', async () => {
    const { account: seller, page } = await signedIn(web(), 'phone');
    await page.goto('/sell');
    const title = `Pictured ${randomBytes(3).toString('hex')}`;
    await fillBook(page, title);

    await choosePhotos(page, [await file('front.jpg', 900, 600), await file('back.jpg', 600, 900)], 2);
    // one removed and chosen again: the list follows
    await page.getByRole('button', { name: 'Remove photo 2 (back.jpg)' }).click();
    await page.getByRole('img', { name: 'Photo 2: back.jpg' }).waitFor({ state: 'detached' });
    await choosePhotos(page, [await file('back.jpg', 600, 900)], 2);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshot(page, 'sell-photos-chosen-phone');

    await recordStatuses(page);
    await page.getByRole('button', { name: 'List the book' }).click();
    const done = page.getByRole('status').filter({ hasText: `“${title}” is listed with 2 photos` });
    await done.waitFor({ timeout: 60_000 });
    expect(await statusesOf(page)).toEqual(
      expect.arrayContaining(['Uploading photo 1 of 2…', 'Uploading photo 2 of 2…', 'Checking the photos…']),
    );
    expect(await done.textContent()).not.toContain('not added');
    // the form is empty again, the chosen photos gone with it
    expect(await page.getByRole('img', { name: /^Photo \d/ }).count()).toBe(0);
    await expectAccessible(page);

    const [posted] = await postsOf(seller.token);
    expect(posted?.name).toBe(title);
    const stored = await bookOf(String(posted?.id));
    expect(stored.photos).toHaveLength(2);
    for (const photo of stored.photos) await expectProcessed(photo);

    // its page shows them
    await done.getByRole('link', { name: 'its page' }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByRole('img', { name: `${title}, view 2` }).waitFor();
  });

  it('names a photo the check refuses as soon as it is checked, not after the minute of waiting (phone)', async () => {
    const { account: seller, page } = await signedIn(web(), 'phone');
    let bookReads = 0;
    page.on('request', (req) => {
      if (req.url().includes('/api/books/getBook/')) bookReads += 1;
    });
    await page.goto('/sell');
    const title = `Refused ${randomBytes(3).toString('hex')}`;
    await fillBook(page, title);
    await page
      .getByLabel('Photos (optional)')
      .setInputFiles([await file('cover.jpg', 400, 400), notAnImage('notes.jpg')]);
    await page.getByRole('img', { name: 'Photo 2: notes.jpg' }).waitFor();
    await page.getByRole('button', { name: 'List the book' }).click();
    const done = page.getByRole('status').filter({ hasText: `“${title}” is listed with 1 photo` });
    // the wait gives up only after a minute: a line within half of it came from the check's answer
    await done.waitFor({ timeout: 30_000 });
    expect(await done.textContent()).toContain('This photo was not added: notes.jpg.');
    // the book was read about once a second while the two were checked, then no more
    expect(bookReads).toBeLessThan(20);
    const [posted] = await postsOf(seller.token);
    expect(posted?.name).toBe(title);
    expect((await bookOf(String(posted?.id))).photos).toHaveLength(1);
  });

  it('keeps the book when a photo fails, names it, and it is added again from My listings (desktop)', async () => {
    const { account: seller, page } = await signedIn(web(), 'desktop');
    // The photo store is another origin: its second upload is cut off as a lost connection would be.
    let uploads = 0;
    await page.route(
      (url) => !url.href.startsWith(web().url),
      (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        uploads += 1;
        return uploads === 2 ? route.abort('connectionfailed') : route.continue();
      },
    );
    await page.goto('/sell');
    const title = `Half pictured ${randomBytes(3).toString('hex')}`;
    await fillBook(page, title);
    await choosePhotos(page, [await file('cover.jpg', 800, 800), await file('spine.jpg', 300, 900)], 2);
    await page.getByRole('button', { name: 'List the book' }).click();
    const done = page.getByRole('status').filter({ hasText: `“${title}” is listed with 1 photo` });
    await done.waitFor({ timeout: 60_000 });
    expect(await done.textContent()).toContain('This photo was not added: spine.jpg.');
    await expectAccessible(page);
    await screenshot(page, 'sell-photo-failed-desktop');

    const [posted] = await postsOf(seller.token);
    const id = String(posted?.id);
    expect((await bookOf(id)).photos).toHaveLength(1);

    // The line's link to My listings, where the photo is added again.
    await page.unrouteAll();
    await done.getByRole('link', { name: 'my listings' }).last().click();
    await page.getByRole('heading', { level: 1, name: 'My listings' }).waitFor();
    await page.getByLabel(`Add a photo of ${title}`).setInputFiles(await file('spine.jpg', 300, 900));
    await page.getByRole('img', { name: `${title}, view 2` }).waitFor({ timeout: 60_000 });
    const stored = await bookOf(id);
    expect(stored.photos).toHaveLength(2);
    for (const photo of stored.photos) await expectProcessed(photo);

    // The book's page points its seller to the same place.
    await page.goto(`/books/${id}`);
    await page.getByRole('link', { name: /add or retry its photos/ }).click();
    await page.getByRole('heading', { level: 1, name: 'My listings' }).waitFor();
  });
});

describe('Your listings on the home page', () => {
  it.each([
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ] as const)(
    'shows the seller their own listed book apart; the grid still leaves it out (%s)',
    async (name, viewport) => {
      const campus = `c${randomBytes(5).toString('hex')}.edu`;
      const at = () => createConfirmedUser({ emailAddress: `s-${randomBytes(5).toString('hex')}@${campus}` });
      const [seller, neighbour, student] = await Promise.all([at(), at(), at()]);
      const post = async (token: string, name: string) => {
        const res = await api('POST', '/api/books/postBook', { token, body: makeBookBody({ name }) });
        expect(res.status).toBe(201);
        return (res.body as { data: { id: string } }).data.id;
      };
      const mine = `Mine ${randomBytes(3).toString('hex')}`;
      const theirs = `Theirs ${randomBytes(3).toString('hex')}`;
      await post(seller.token, mine);
      await post(neighbour.token, theirs);

      // A student with no listings sees the book in the grid and no such row.
      const other = await web().newPage(viewport);
      const read = other.waitForResponse((r) => r.url().includes('/api/books/getUsersPosts'));
      await logIn(other, student.user.emailAddress);
      const row = (page: Page) => page.getByRole('region', { name: 'Your listings' });
      const grid = (page: Page) => page.getByRole('region', { name: /^(Newest books|Books) at / });
      await grid(other).getByRole('link', { name: mine, exact: true }).waitFor();
      expect((await read).status()).toBe(200);

      const page = await web().newPage(viewport);
      await logIn(page, seller.user.emailAddress);
      await row(page).getByRole('link', { name: mine, exact: true }).waitFor();
      await grid(page).getByRole('link', { name: theirs, exact: true }).waitFor();
      expect(await grid(page).getByRole('link', { name: mine, exact: true }).count()).toBe(0);
      expect(
        await row(page).getByRole('link', { name: 'Edit them in my listings' }).getAttribute('href'),
      ).toBe('/listings');
      // the row stands above the grid
      const [rowBox, gridBox] = await Promise.all([row(page).boundingBox(), grid(page).boundingBox()]);
      expect(Number(rowBox?.y)).toBeLessThan(Number(gridBox?.y));
      await expectAccessible(page);
      await screenshot(page, `home-your-listings-${name}`);
      expect(await row(other).count()).toBe(0);
    },
  );
});
