/**
 * The scene of the hand-over browser tests (tests/e2e/web/handover*.test.ts): an admin, a seller
 * (Sam) and a buyer (Bea) of one campus, a hand-over point there open all week (UTC), and Bea's order
 * of one of Sam's books, bought over the API.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { buyOverApi, listBook, logIn } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';

export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
];

const ALL_WEEK = [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, opens: '00:00', closes: '23:59' }));

/** Tomorrow at `hour`:00 UTC: `YYYY-MM-DDTHH:MM` (the browser's and the machine's zone is UTC), ISO and the day. */
export const tomorrowAt = (hour: number) => {
  const d = new Date(Date.now() + 24 * 3600 * 1000);
  d.setUTCHours(hour, 0, 0, 0);
  return { local: d.toISOString().slice(0, 16), iso: d.toISOString(), day: d.toISOString().slice(0, 10) };
};

export async function handoverScene() {
  const admin = await createConfirmedUser({ permissionType: 1 });
  const seller = await createConfirmedUser({ firstName: 'Sam' });
  const buyer = await createConfirmedUser({ firstName: 'Bea' });
  const campus = buyer.user.emailAddress.split('@')[1] ?? '';
  const pointName = `Library ${Date.now().toString(36)}`;
  const point = await api('POST', '/api/dashboard/putHandoverPoint', {
    token: admin.token,
    body: { campus, name: pointName, location: 'Front desk', timeZone: 'UTC', hours: ALL_WEEK },
  });
  expect(point.status).toBe(200);
  const pointId = (point.body as { data: { id: string } }).data.id;
  const book = await listBook(seller.token);
  const placed = await buyOverApi(buyer.token, book.id);
  return { admin, seller, buyer, pointName, pointId, book, orderId: placed.id, createdAt: placed.createdAt };
}

/** The buyer's order page, its hand-over form filled in for tomorrow at `hour` at the point (not sent). */
export async function fillProposal(
  page: Page,
  scene: { buyer: { user: { emailAddress: string } }; orderId: string; pointName: string },
  hour: number,
) {
  await logIn(page, scene.buyer.user.emailAddress);
  await page.goto(`/orders/${scene.orderId}`);
  await page.getByRole('heading', { name: 'Hand-over', exact: true }).waitFor();
  await page.getByLabel('Hand-over point with Sam').selectOption({ label: scene.pointName });
  await page.getByLabel('Hand-over time with Sam').fill(tomorrowAt(hour).local);
}
