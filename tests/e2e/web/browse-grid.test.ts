/**
 * Browse built for a phone (issue 32, items 1 and 5): a book card on the first phone screen, a
 * grid of 2 columns on a phone and 4 or more on a desktop, a sort change alone re-querying and
 * landing in the address, add-to-cart from the grid, an 84-character word that does not widen the
 * page, the main script served compressed, the filters folded into a sheet on a phone, and the
 * compact navigation: icons with labels, badges, the other pages under "More".
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import { expectAccessible, logIn } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

/** A campus nobody else uses, a seller there with `names` listed, and a student there. */
async function campusWithBooks(names: string[]) {
  const campus = `c${randomBytes(5).toString('hex')}.edu`;
  const at = () => createConfirmedUser({ emailAddress: `s-${randomBytes(5).toString('hex')}@${campus}` });
  const [seller, student] = await Promise.all([at(), at()]);
  for (const [i, name] of names.entries()) {
    const res = await api('POST', '/api/books/postBook', {
      token: seller.token,
      body: makeBookBody({ name, price: 10 + i, condition: 'good' }),
    });
    expect(res.status).toBe(201);
  }
  return { student };
}

/** The number of columns the grid lays its cards in. */
const columns = async (page: Page): Promise<number> => {
  await page.locator('ul.books.grid[aria-busy="false"]').waitFor();
  const template = await page.evaluate<string>(
    `getComputedStyle(document.querySelector('ul.books.grid[aria-busy="false"]')).gridTemplateColumns`,
  );
  return template.split(' ').length;
};

describe('browse on a phone and a desktop', () => {
  it('shows a card on the first phone screen, two columns, long words wrapped, sort in the address', async () => {
    const long = `Q${'x'.repeat(83)}`;
    expect(long).toHaveLength(84);
    const { student } = await campusWithBooks([long, 'Cheap optics', 'Dear waves']);
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, student.user.emailAddress);
    await page.goto('/');
    const card = page.locator('ul.books.grid .card').first();
    await card.waitFor();
    const box = await card.boundingBox();
    expect(box && box.y + 40 < 844, `first card at ${box?.y}`).toBe(true);
    expect(await columns(page)).toBe(2);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    // A book without a photo has a generated cover with its course.
    await expect.poll(() => page.locator('ul.books.grid .cover').count()).toBe(3);
    // The heart sits on the picture's top right, a 44 px target showing the heart alone; Add to
    // cart is the card's one button under its facts, on the card's left edge.
    const name = (await card.locator('h3').innerText()).trim();
    const heart = card.getByRole('button', { name: `Save ${name}` });
    await heart.waitFor();
    expect((await heart.innerText()).trim()).toBe('♡');
    const picture = card.locator('.cover, .card-image').first();
    await expect.poll(async () => (await heart.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(44);
    const heartBox = await heart.boundingBox();
    const [pictureBox, addBox] = [
      await picture.boundingBox(),
      await card.locator('.card-action button').boundingBox(),
    ];
    expect(heartBox && pictureBox && addBox && box, 'heart, picture and button laid out').toBeTruthy();
    if (heartBox && pictureBox && addBox && box) {
      expect(heartBox.width).toBeGreaterThanOrEqual(44);
      expect(heartBox.height).toBeGreaterThanOrEqual(44);
      expect(heartBox.y - pictureBox.y).toBeLessThanOrEqual(12);
      expect(pictureBox.x + pictureBox.width - (heartBox.x + heartBox.width)).toBeLessThanOrEqual(12);
      expect(heartBox.y + heartBox.height).toBeLessThanOrEqual(pictureBox.y + pictureBox.height);
      expect(addBox.y).toBeGreaterThan(pictureBox.y + pictureBox.height);
      expect(addBox.x - box.x).toBeLessThanOrEqual(12);
    }
    expect(await card.locator('.card-action button').count()).toBe(1);
    // a tap on the picture beside the heart still opens the book (the heart's row lets it through)
    const [x, y] = [(pictureBox?.x ?? 0) + 20, (heartBox?.y ?? 0) + 10];
    expect(await page.evaluate<string>(`document.elementFromPoint(${x}, ${y})?.className ?? ''`)).toBe(
      'card-link',
    );

    // The filters and sort are folded into their sheet on a phone; opened, a choice applies at once.
    expect(await page.getByLabel('Sort').isVisible()).toBe(false);
    await page.getByText('Filters and sort', { exact: true }).click();
    // Sort alone: the list is asked again, sorted, and the address says so.
    const asked = page.waitForRequest(
      (r) => r.url().includes('getAllBooks') && r.url().includes('price-desc'),
    );
    await page.getByLabel('Sort').focus();
    await page.getByLabel('Sort').selectOption('price-desc');
    await asked;
    expect(new URL(page.url()).searchParams.get('sort')).toBe('price-desc');
    await page.locator('ul.books.grid[aria-busy="false"]').waitFor();
    // the list just chosen keeps the focus (the form is not remounted by the new address)
    expect(await page.evaluate<string>("document.activeElement.labels?.[0]?.textContent ?? ''")).toBe('Sort');
    const titles = await page.locator('ul.books.grid h3').allTextContents();
    expect(titles[0]).toBe('Dear waves');

    // Add to cart without leaving the grid.
    await page.getByRole('button', { name: 'Add Dear waves to cart' }).click();
    await page.locator('.card-action .tag', { hasText: 'In your cart' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    const cart = await api('GET', '/api/user/getCartItems', { token: student.token });
    expect(cart.status).toBe(200);
    expect(JSON.stringify(cart.body)).toContain('Dear waves');
    // ...and the cart's badge in the navigation counts it at once.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Cart (1)' }).waitFor();
    await expectAccessible(page);

    // the card opened: its page leads with the same generated cover, in the card's colour
    const colour = await page
      .getByRole('article', { name: 'Dear waves' })
      .locator('.cover')
      .getAttribute('style');
    expect(colour).toMatch(/^background: rgb\(/);
    await page.getByRole('link', { name: 'Dear waves' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dear waves' }).waitFor();
    const cover = page.locator('.page-cover .cover');
    expect(await cover.locator('.cover-title').innerText()).toBe('Dear waves');
    expect(await cover.getAttribute('style')).toBe(colour);
    const shown = await cover.boundingBox();
    expect(shown && shown.y + shown.height < 844, 'the cover within the first phone screen').toBe(true);
    await expectAccessible(page);

    // on a wide screen the price and facts stand beside the 160 px cover, not a photo's 28rem away
    const wide = await web().newPage({ width: 1280, height: 900 });
    await logIn(wide, student.user.emailAddress);
    await wide.goto(page.url());
    // measured once both are laid out (a box read while the page re-renders is null)
    const boxes = async () => {
      const cover = await wide.locator('.page-cover .cover').boundingBox();
      const price = await wide.locator('.book-price').boundingBox();
      return cover && price ? { cover, price, gap: price.x - (cover.x + cover.width) } : null;
    };
    await expect
      .poll(async () => (await boxes())?.gap ?? Number.POSITIVE_INFINITY, { timeout: 15_000 })
      .toBeLessThanOrEqual(48);
    const laid = await boxes();
    expect(laid?.gap, `the price ${laid?.gap} px right of the cover`).toBeGreaterThan(0);
    expect(laid?.price.y).toBeLessThan((laid?.cover.y ?? 0) + (laid?.cover.height ?? 0));
  });

  it('navigates by icons with labels in one row on a phone, the other pages under "More"', async () => {
    const { student } = await campusWithBooks(['Nav book']);
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, student.user.emailAddress);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const everyday = ['Books', 'Sell', 'Messages', 'Cart', 'Notifications'];
    const boxes = [];
    for (const name of everyday) {
      const link = nav.getByRole('link', { name, exact: true });
      expect(await link.locator('svg.icon').count(), name).toBe(1);
      boxes.push(await link.boundingBox());
    }
    // one row, inside the phone's width
    const tops = new Set(boxes.map((b) => Math.round(b?.y ?? -1)));
    expect(tops.size).toBe(1);
    for (const b of boxes) expect((b?.x ?? 999) + (b?.width ?? 0)).toBeLessThanOrEqual(390);
    expect((await nav.boundingBox())?.height ?? 999).toBeLessThan(80);

    // "More" holds the rest: closed at first, opened by its button, closed by Escape.
    const more = nav.getByRole('button', { name: 'More' });
    expect(await nav.getByRole('link', { name: 'My listings' }).isVisible()).toBe(false);
    await more.click();
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    await nav.getByRole('link', { name: 'My listings' }).waitFor();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate<string>('document.activeElement?.textContent ?? ""')).toBe('More');
    // a page chosen from it closes it
    await more.click();
    await nav.getByRole('link', { name: 'Saved' }).click();
    await page.getByRole('heading', { level: 1, name: 'Saved books' }).waitFor();
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    // (closed again: the link is there, hidden, and marks the page)
    expect(
      await nav.getByRole('link', { name: 'Saved', includeHidden: true }).getAttribute('aria-current'),
    ).toBe('page');

    // On a desktop every page is in view and there is no "More".
    await page.setViewportSize({ width: 1280, height: 800 });
    await nav.getByRole('link', { name: 'My listings' }).waitFor();
    expect(await more.isVisible()).toBe(false);
  });

  it('lays the grid in four or more columns on a desktop, each card one link', async () => {
    const { student } = await campusWithBooks(['One', 'Two']);
    const page = await web().newPage({ width: 1280, height: 800 });
    await logIn(page, student.user.emailAddress);
    await page.goto('/');
    await page.locator('ul.books.grid .card').first().waitFor();
    expect(await columns(page)).toBeGreaterThanOrEqual(4);
    // the filters stand open in one row, and each choice shows whole in its field (the campus's
    // read "My campus (c1a2b3…" cut short)
    const fits = await page.evaluate<{ name: string; text: number; room: number }[]>(
      `[...document.querySelectorAll('form.filters select')].map((s) => {
        const style = getComputedStyle(s);
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = style.font;
        // the room left of the drop-down arrow (about 1.25rem in Chromium)
        const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
        return { name: s.name, text: Math.ceil(ctx.measureText(s.selectedOptions[0].text).width), room };
      })`,
    );
    expect(fits.map((f) => f.name)).toEqual(['campus', 'condition', 'sort']);
    for (const f of fits)
      expect(f.text, `${f.name}: ${f.text} px of text in ${f.room} px`).toBeLessThanOrEqual(f.room);
    await page.getByRole('link', { name: 'Two', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: /Two/ }).waitFor();
  });

  it('serves the main script compressed, as CloudFront does', async () => {
    const html = await (await fetch(web().url)).text();
    const script = /src="(\/assets\/index-[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    for (const encoding of ['br', 'gzip']) {
      const answer = await fetch(`${web().url}${script}`, { headers: { 'Accept-Encoding': encoding } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-encoding')).toBe(encoding);
      expect(answer.headers.get('vary')).toBe('Accept-Encoding');
      const length = Number(answer.headers.get('content-length'));
      expect(length).toBeLessThan(150_000);
    }
    const plain = await fetch(`${web().url}${script}`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
  });
  it('says what would show more on an empty listing: the other campuses, or clearing the filters', async () => {
    const { student } = await campusWithBooks(['Lonely optics']);
    const campus = student.user.emailAddress.split('@')[1] ?? '';
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, student.user.emailAddress);
    // filters that match nothing at the campus: clearing them keeps the rest of the address
    await page.goto('/?condition=new&sort=price-asc');
    await page.getByText('No books match these filters.').waitFor();
    await page.getByRole('link', { name: 'Clear the filters' }).click();
    await page.getByRole('heading', { level: 3, name: 'Lonely optics' }).waitFor();
    expect(new URL(page.url()).search).toBe('?sort=price-asc');

    // a campus with no books: the student is offered every campus
    const loner = await createConfirmedUser({
      emailAddress: `s-${randomBytes(5).toString('hex')}@e${randomBytes(5).toString('hex')}.edu`,
    });
    const empty = await web().newPage({ width: 390, height: 844 });
    await logIn(empty, loner.user.emailAddress);
    const lonerCampus = loner.user.emailAddress.split('@')[1] ?? '';
    expect(lonerCampus).not.toBe(campus);
    await empty.getByText(`No books at ${lonerCampus} yet.`).waitFor();
    await expectAccessible(empty);
    await empty.getByRole('link', { name: 'See all campuses' }).click();
    expect(new URL(empty.url()).searchParams.get('campus')).toBe('all');
    await empty.getByRole('heading', { name: 'Newest books at all campuses' }).waitFor();
  });
});
