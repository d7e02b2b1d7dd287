/**
 * The dashboard's statistics over time in a real browser (phone and desktop): activity seeded at a
 * campus of its own is counted by the e2e stack's stream consumer into weekly counters, and the
 * Statistics tab, filtered to that campus, draws it: the bars and the charts' hidden value tables
 * say exactly what was seeded. axe clean.
 */
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { addWeeks, isoWeekStart, readWeeks } from '#lib/db/weekly-stats.ts';
import { createConfirmedUser, type TestAccount } from '#tests/helpers/accounts.ts';
import { daysBefore, seedBook } from '#tests/helpers/books.ts';
import { expectAccessible, logIn, screenshot } from '#tests/helpers/browser.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();
let admin: TestAccount;
let seller: TestAccount;
let buyer: TestAccount;

beforeAll(async () => {
  admin = await createConfirmedUser({ permissionType: 1 });
  seller = await createConfirmedUser();
  buyer = await createConfirmedUser();
});

const VIEWPORTS = [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const;

/** Polls the stored weekly counters (summed over their parts) until `done` holds (the consumer runs a moment after the writes). */
async function waitForCounters(
  campus: string,
  week: string,
  done: (item: Record<string, number | string>) => boolean,
) {
  const until = Date.now() + 60_000;
  for (;;) {
    const [item] = await readWeeks(campus, week, week, 1);
    if (item && done(item)) return;
    if (Date.now() > until) throw new Error(`weekly counters of ${campus} ${week}: ${JSON.stringify(item)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * At a campus of its own: a book listed two weeks ago, one listed this week, and one listed and
 * bought this week ($25.00, fee $1.25), stored straight into the table as the stream sees them.
 */
async function seedActivity(campus: string) {
  const now = new Date();
  const week = isoWeekStart(now);
  const earlier = daysBefore(now, 14);
  await seedBook(seller.user.id, { campus, date: earlier });
  await seedBook(seller.user.id, { campus, date: now.toISOString() });
  await seedBook(seller.user.id, {
    campus,
    date: now.toISOString(),
    status: 1,
    priceCents: 2500,
    feeCents: 125,
    buyerId: buyer.user.id,
    orderId: ulid(),
    boughtAt: now.toISOString(),
  });
  await waitForCounters(campus, week, (i) => i.newListings === 2 && i.orders === 1 && i.grossSales === 2500);
  await waitForCounters(campus, isoWeekStart(earlier), (i) => i.newListings === 1);
  return { week, earlierWeek: isoWeekStart(earlier) };
}

describe('the statistics tab', { timeout: 120_000 }, () => {
  for (const [name, viewport] of VIEWPORTS) {
    it(`draws orders, gross and fees, and new listings by week for one campus (${name})`, async () => {
      const campus = `w${name}${Math.random().toString(36).slice(2, 8)}.edu`;
      const { week, earlierWeek } = await seedActivity(campus);
      const page = await web().newPage(viewport);
      await logIn(page, admin.user.emailAddress);
      await page.goto('/dashboard?tab=statistics');
      await page.getByRole('heading', { name: 'The last 12 weeks, every campus' }).waitFor();
      // the totals say they cover every campus: the filter below does not narrow them
      await page.getByRole('heading', { name: 'Totals since the start, every campus' }).waitFor();
      await page.getByLabel('Campus domain (empty for every campus)').fill(campus.toUpperCase());
      await page.getByRole('button', { name: 'Show' }).click();
      await page.getByRole('heading', { name: `The last 12 weeks at ${campus}` }).waitFor();

      for (const caption of ['Orders placed by week', 'Gross sales and fees by week', 'New listings by week'])
        await page.getByRole('figure', { name: caption }).waitFor();
      // the values as screen readers get them: one row per week, oldest first, this week last
      const rows = async (chart: string) =>
        page
          .locator(`table[data-values="${chart}"] tbody tr`)
          .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
      const orders = await rows('orders');
      expect(orders).toHaveLength(12);
      expect(orders.at(-1)).toEqual([week, '1']);
      expect(orders.slice(0, -1).every((r) => r[1] === '0')).toBe(true);
      expect((await rows('money')).at(-1)).toEqual([week, '$25.00', '$1.25']);
      const listings = await rows('listings');
      expect(listings.at(-1)).toEqual([week, '2']);
      expect(listings.find((r) => r[0] === earlierWeek)).toEqual([earlierWeek, '1']);
      expect(listings.filter((r) => r[1] !== '0')).toHaveLength(2);
      expect(addWeeks(week, -11)).toBe(orders[0]?.[0]);

      // the bars: as tall as their values say (the highest full height, an empty week none)
      const bar = (chart: string, w: string, series: string) =>
        page.locator(`svg[data-chart="${chart}"] rect[data-week="${w}"][data-series="${series}"]`);
      const height = async (chart: string, w: string, series: string) =>
        Number(await bar(chart, w, series).getAttribute('height'));
      expect(await bar('listings', week, 'New listings').getAttribute('data-value')).toBe('2');
      const full = await height('listings', week, 'New listings');
      expect(full).toBeGreaterThan(0);
      expect(await height('listings', earlierWeek, 'New listings')).toBeCloseTo(full / 2, 5);
      expect(await height('listings', addWeeks(week, -1), 'New listings')).toBe(0);
      expect(await height('money', week, 'Fees')).toBeCloseTo(
        (await height('money', week, 'Gross sales')) / 20,
        5,
      );
      // the charts fit the screen
      const overflow = await page.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      expect(overflow).toBeLessThanOrEqual(0);
      // every total's value keeps room for a short figure (a long label once squeezed "$0.00"
      // to one character a line on a phone)
      const narrowest = await page.evaluate<number>(
        "Math.min(...[...document.querySelectorAll('dl.details dd')].map((d) => d.getBoundingClientRect().width))",
      );
      expect(narrowest).toBeGreaterThanOrEqual(60);
      await expectAccessible(page);
      if (name === 'phone') await screenshot(page, 'dashboard-weekly-statistics-phone');

      if (name === 'desktop') {
        // a campus that is not a domain: the field says so in plain words
        await page.getByLabel('Campus domain (empty for every campus)').fill('not a campus');
        await page.getByRole('button', { name: 'Show' }).click();
        await page.getByText('A campus domain such as uni.edu, or all.').first().waitFor();
        await expectAccessible(page);
      }
    });
  }
});
