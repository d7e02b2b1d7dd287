/**
 * Photos in a real browser, against the e2e tier's API and S3 emulator: a seller uploads a real
 * JPEG on "My listings" (addPhoto's presigned POST straight from the browser to the photo store,
 * then the processor), its thumbnail appears there, on the book card of a search and on the book's
 * page; removing it takes it off the book. Stored state is re-read over the API.
 */
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { writeObject } from '#lib/photos/store.ts';
import { mediumKey, photoKey, thumbnailKey } from '#lib/values/photos.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { seedBook } from '#tests/helpers/books.ts';
import { expectAccessible, logIn, screenshot, sellerWithBookAt } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';
import { jpegWithGps } from '#tests/helpers/photos.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

type Photo = { id: string; url: string; mediumUrl: string; thumbnailUrl: string };

const photosOf = async (bookId: string): Promise<Photo[]> => {
  const res = await api('GET', `/api/books/getBook/${bookId}`);
  expect(res.status).toBe(200);
  return (res.body as { data: { photos: Photo[] } }).data.photos;
};

/** A plain WebP of this size, as the processor writes them. */
const webp = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 160 } } })
    .webp()
    .toBuffer();

/** The image's decoded width in the page: 0 until the browser has loaded and decoded it. */
const loadedWidth = (page: Page, alt: string) =>
  page.evaluate(`document.querySelector(${JSON.stringify(`img[alt="${alt}"]`)})?.naturalWidth ?? 0`);

/** The file an image shows once loaded (with `srcset`, naturalWidth is divided by the chosen density). */
const loadedFile = (page: Page, alt: string) =>
  page.evaluate(
    `(() => { const i = document.querySelector(${JSON.stringify(`img[alt="${alt}"]`)}); return i?.complete && i.naturalWidth > 0 ? i.currentSrc : ''; })()`,
  );

describe('photos in the browser', () => {
  it('a seller uploads a JPEG on My listings; its thumbnail shows there, in search and on the book page; removing it takes it off', async () => {
    const { book, page } = await sellerWithBookAt(web(), '/listings');
    await page.getByRole('heading', { level: 3, name: new RegExp(book.name) }).waitFor();

    await page.getByLabel(`Add a photo of ${book.name}`).setInputFiles({
      name: 'book.jpg',
      mimeType: 'image/jpeg',
      buffer: await jpegWithGps(900, 600),
    });
    const own = `${book.name}, view 1`;
    await page.getByRole('img', { name: own }).waitFor({ timeout: 60_000 });
    await expect.poll(() => loadedWidth(page, own), { timeout: 15_000 }).toBeGreaterThan(0);
    await page.getByRole('status').filter({ hasText: 'The photo is added' }).waitFor();
    const [stored] = await photosOf(book.id);
    expect(stored?.thumbnailUrl).toMatch(/^http/);
    expect(await page.getByRole('img', { name: own }).getAttribute('src')).toBe(stored?.thumbnailUrl);
    await expectAccessible(page);
    await screenshot(page, 'listing-photos');

    // A buyer sees it as the book's picture on the search results, and on the book's page.
    // (search pages read entries the stream consumer rewrites with the photo: wait for it)
    const searchedPhotos = async () => {
      const res = await api('GET', `/api/books/search/public/${encodeURIComponent(book.name)}`);
      const found = (res.body as { data?: Array<{ id: string; photos: Photo[] }> }).data ?? [];
      return found.find((b) => b.id === book.id)?.photos.length ?? 0;
    };
    await expect.poll(searchedPhotos, { timeout: 30_000, interval: 300 }).toBe(1);
    const buyer = await createConfirmedUser();
    const other = await web().newPage();
    await logIn(other, buyer.user.emailAddress);
    await other.goto(`/?q=${encodeURIComponent(book.name)}`);
    const card = `The book ${book.name}`;
    await other.getByRole('img', { name: card }).waitFor();
    await expect.poll(() => loadedWidth(other, card), { timeout: 15_000 }).toBeGreaterThan(0);
    await expectAccessible(other);
    await screenshot(other, 'search-photos');
    await other.getByRole('link', { name: book.name, exact: true }).click();
    await other.getByRole('img', { name: own }).waitFor();
    expect(await other.getByRole('link', { name: own }).getAttribute('href')).toBe(stored?.url);

    // removing a photo asks first: Cancel keeps it, stored; OK removes it
    const remove = page.getByRole('button', { name: `Remove photo 1 of ${book.name}` });
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await remove.click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toBe(
      `Remove photo 1 of “${book.name}”? Buyers no longer see it; to show it again, add it again.`,
    );
    expect(await photosOf(book.id)).toHaveLength(1);
    await page.getByRole('img', { name: own }).waitFor();
    page.once('dialog', (d) => void d.accept());
    await remove.click();
    await page.getByRole('img', { name: own }).waitFor({ state: 'detached' });
    expect(await photosOf(book.id)).toEqual([]);
  });

  it('refuses a file that is not a photo when it is picked, naming it, and asks the service nothing', async () => {
    const { book, page } = await sellerWithBookAt(web(), '/listings');
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await page.getByLabel(`Add a photo of ${book.name}`).setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a picture'),
    });
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('notes.txt is not a photo: choose a JPEG, PNG or WebP image.');
    expect(asked.filter((p) => p === '/api/books/addPhoto')).toEqual([]);
    expect(await page.getByRole('status').count()).toBe(0);
    expect(await photosOf(book.id)).toEqual([]);
  });
});

describe("the book page's photos", () => {
  it("lead with the first photo as wide as a phone allows, in the smallest file sharp at the screen's density; the others follow small", async () => {
    const seller = await createConfirmedUser();
    const name = `Lead photo ${ulid()}`;
    const book = await seedBook(seller.user.id, {
      name,
      price: 30,
      condition: 'good',
      photos: [{ id: 'leadone' }, { id: 'leadtwo' }],
      photoVersion: 1,
    });
    // the stored files as the processor leaves them: the photo, its middle rendition and its thumbnail, WebP
    for (const id of ['leadone', 'leadtwo']) {
      await writeObject(photoKey(book.id, id), await webp(1200, 1600), 'image/webp');
      await writeObject(mediumKey(book.id, id), await webp(600, 800), 'image/webp');
      await writeObject(thumbnailKey(book.id, id), await webp(240, 320), 'image/webp');
    }
    const [lead, second] = await photosOf(book.id);
    const box = (page: Page, alt: string) =>
      page.getByRole('img', { name: alt, exact: true }).evaluate((img) => {
        const r = img.getBoundingClientRect();
        return {
          width: Math.round(r.width),
          height: Math.round(r.height),
          src: (img as unknown as { currentSrc: string }).currentSrc,
          // the lead shows the whole photo (a portrait one in its square), the small ones fill theirs
          fit: img.ownerDocument.defaultView?.getComputedStyle(img).objectFit,
        };
      });
    /** The lead photo shown: `url` loaded (the browser picks the source), `size` px square, whole. */
    const expectLead = async (page: Page, url: string | undefined, size: number) => {
      await expect.poll(() => loadedFile(page, `${name}, view 1`), { timeout: 15_000 }).toBe(url);
      expect(await box(page, `${name}, view 1`)).toEqual({
        width: size,
        height: size,
        src: url,
        fit: 'contain',
      });
    };

    const phone = await web().newPage({ width: 390, height: 844 });
    await phone.goto(`/books/${book.id}`);
    await phone.getByRole('heading', { level: 1, name }).waitFor();
    // 20rem, within the phone's 390 px less the page's margins; at 1 device pixel per CSS pixel its
    // thumbnail is sharp, so that is what it loads
    await expectLead(phone, lead?.thumbnailUrl, 320);
    expect(await box(phone, `${name}, view 2`)).toEqual({
      width: 80,
      height: 80,
      src: second?.thumbnailUrl,
      fit: 'cover',
    });
    expect(await phone.getByRole('link', { name: `${name}, view 1` }).getAttribute('href')).toBe(lead?.url);
    await expectAccessible(phone);
    await screenshot(phone, 'book-photos-phone');

    // a buyer signed in: the price and Add to cart come before the facts, so they are on the first
    // phone screen under two photos (below a dozen facts, they were not); a fact the seller left
    // empty is left out, not shown as "—"
    const buyer = await createConfirmedUser();
    const shopper = await web().newPage({ width: 390, height: 844 });
    await logIn(shopper, buyer.user.emailAddress);
    await shopper.goto(`/books/${book.id}`);
    const add = shopper.getByRole('button', { name: 'Add to cart' });
    await add.waitFor();
    const addBox = await add.boundingBox();
    expect(addBox && addBox.y + addBox.height <= 844, `Add to cart at ${addBox?.y}`).toBe(true);
    expect(await shopper.locator('.book-price').textContent()).toBe('$30.00 · Good');
    expect(await shopper.locator('dl.details').textContent()).not.toContain('—');
    expect(await shopper.locator('dl.details dt').allTextContents()).not.toContain('ISBN');
    await expectAccessible(shopper);

    // a dense phone (3 device pixels per CSS pixel, as most are): the 800 px rendition, not the 1600 px photo
    const dense = await web().newPage({ width: 390, height: 844, scale: 3 });
    // every layout shift of the page summed, and every request for the lead photo's files
    await dense.addInitScript(
      "window.__shift = 0; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__shift += e.value; }).observe({ type: 'layout-shift', buffered: true });",
    );
    const fetched: string[] = [];
    dense.on('request', (r) => {
      if (r.url().includes('/leadone')) fetched.push(r.url());
    });
    await dense.goto(`/books/${book.id}`);
    await expectLead(dense, lead?.mediumUrl, 320);
    expect((await box(dense, `${name}, view 2`)).src).toBe(second?.thumbnailUrl);
    // of the lead's three files, only the one shown was fetched, once
    expect(fetched).toEqual([lead?.mediumUrl]);
    // the page taller than the screen once filled in moved nothing (the footer starts below the fold)
    expect(await dense.evaluate('window.__shift')).toBe(0);

    const desktop = await web().newPage({ width: 1280, height: 900 });
    await desktop.goto(`/books/${book.id}`);
    // 28rem: at 1 device pixel per CSS pixel the 800 px rendition is sharp enough
    await expectLead(desktop, lead?.mediumUrl, 448);
    // the facts beside the photo, not below it
    const photoBox = await desktop.getByRole('img', { name: `${name}, view 1`, exact: true }).boundingBox();
    const factsBox = await desktop.locator('dl.details').boundingBox();
    expect(factsBox?.x).toBeGreaterThan((photoBox?.x ?? 0) + (photoBox?.width ?? 0));
    expect(factsBox?.y).toBeLessThan((photoBox?.y ?? 0) + (photoBox?.height ?? 0));
    await screenshot(desktop, 'book-photos-desktop');

    // a dense wide screen (2 device pixels per CSS pixel): the 1600 px photo itself
    const retina = await web().newPage({ width: 1280, height: 900, scale: 2 });
    await retina.goto(`/books/${book.id}`);
    await expect.poll(() => loadedFile(retina, `${name}, view 1`), { timeout: 15_000 }).toBe(lead?.url);
    expect((await box(retina, `${name}, view 1`)).src).toBe(lead?.url);
  });
});
