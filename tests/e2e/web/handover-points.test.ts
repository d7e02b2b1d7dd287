/**
 * An administrator keeps a campus's hand-over points on the dashboard ("Hand-over points" tab):
 * adds one with its hours, is told plainly when an opening closes before it opens, changes it,
 * and removes it; a student of that campus proposes at the point as it is. Each step re-reads the
 * stored point.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { listHandoverPoints } from '#lib/db/handovers.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { expectAccessible, logIn, screenshot } from '#tests/helpers/browser.ts';
import { seedOrder } from '#tests/helpers/orders.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

const week = (opens: string, closes: string) => [1, 2, 3, 4, 5].map((day) => ({ day, opens, closes }));

describe('the hand-over points tab', () => {
  it('adds a point with its hours, refuses an opening that closes before it opens, changes and removes it', async () => {
    const campus = `p${randomBytes(5).toString('hex')}.edu`;
    const admin = await createConfirmedUser({ permissionType: 1 });
    const buyer = await createConfirmedUser({ firstName: 'Bea', emailAddress: `bea@${campus}` });
    const seller = await createConfirmedUser({ firstName: 'Sam', emailAddress: `sam@${campus}` });
    const order = await seedOrder(buyer.user.id, [{ sellerId: seller.user.id }]);

    const page = await web().newPage({ width: 390, height: 844 });
    page.on('dialog', (dialog) => void dialog.accept());
    await logIn(page, admin.user.emailAddress);
    await page.goto('/dashboard?tab=points');
    // the administrator's own campus first
    const own = admin.user.emailAddress.split('@')[1];
    await page.getByRole('heading', { name: `Hand-over points at ${own}` }).waitFor();
    await page.getByLabel('Campus domain').fill(campus.toUpperCase());
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('heading', { name: `Hand-over points at ${campus}` }).waitFor();
    await page.getByText(`No hand-over point at ${campus} yet`).waitFor();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Add a hand-over point' }).click();
    const add = page.getByRole('form', { name: `Add a hand-over point at ${campus}` });
    await add.getByLabel('Name').fill('Library');
    await add.getByLabel('Where exactly (optional)').fill('Front desk');
    await add.getByLabel('Time zone of the hours').selectOption('America/New_York');
    await add.getByRole('button', { name: 'Add an opening' }).click();
    expect(await add.getByLabel('Day of opening 6').inputValue()).toBe('6');
    await expectAccessible(page);
    await add.getByRole('button', { name: 'Add this point' }).click();
    await page.getByRole('status').filter({ hasText: 'Library was added.' }).waitFor();
    const card = page.getByRole('article', { name: 'Library' });
    expect(await card.getByText(/^Hours: /).textContent()).toBe(
      'Hours: Mon-Fri 9:00 AM-5:00 PM, Sat 10:00 AM-2:00 PM (America/New_York)',
    );
    const [stored] = await listHandoverPoints(campus);
    expect(stored).toMatchObject({
      campus,
      name: 'Library',
      location: 'Front desk',
      timeZone: 'America/New_York',
      hours: [...week('09:00', '17:00'), { day: 6, opens: '10:00', closes: '14:00' }],
    });
    await screenshot(page, 'dashboard-handover-points-phone');

    // an opening that closes before it opens: the service's sentence at that opening, nothing stored
    await card.getByRole('button', { name: 'Change Library' }).click();
    const change = page.getByRole('form', { name: 'Change Library' });
    await change.getByLabel('Closes (opening 1)').fill('08:00');
    await change.getByRole('button', { name: 'Save the changes' }).click();
    await change.getByText('An opening must close after it opens.').waitFor();
    expect(await listHandoverPoints(campus)).toEqual([stored]);

    await change.getByLabel('Closes (opening 1)').fill('12:00');
    // Saturday's opening twice: refused at the second one, nothing stored
    await change.getByRole('button', { name: 'Add an opening' }).click();
    await change.getByRole('button', { name: 'Save the changes' }).click();
    await change
      .getByText('This opening overlaps opening 6 (or is the same): make each day’s openings separate.')
      .waitFor();
    expect(await listHandoverPoints(campus)).toEqual([stored]);
    await change.getByRole('button', { name: 'Remove opening 7' }).click();
    await change.getByRole('button', { name: 'Remove opening 6' }).click();
    await change.getByLabel('Name').fill('Main library');
    await change.getByRole('button', { name: 'Save the changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Main library was saved.' }).waitFor();
    const [changed] = await listHandoverPoints(campus);
    expect(changed).toMatchObject({
      id: stored?.id,
      name: 'Main library',
      hours: [{ day: 1, opens: '09:00', closes: '12:00' }, ...week('09:00', '17:00').slice(1)],
    });

    // the buyer proposes at the point as it is now
    const student = await web().newPage({ width: 390, height: 844 });
    await logIn(student, buyer.user.emailAddress);
    await student.goto(`/orders/${order.id}`);
    // (the seeded book names its seller as the seed does, whatever the account's name)
    const points = student.getByLabel(/^Hand-over point with /);
    await points.waitFor();
    expect(await points.locator('option').allTextContents()).toEqual(['Main library']);
    await student
      .getByText('Hours: Mon 9:00 AM-12:00 PM, Tue-Fri 9:00 AM-5:00 PM (America/New_York)')
      .waitFor();

    await page.getByRole('button', { name: 'Remove Main library' }).click();
    await page.getByRole('status').filter({ hasText: 'Main library was removed.' }).waitFor();
    await page.getByText(`No hand-over point at ${campus} yet`).waitFor();
    expect(await listHandoverPoints(campus)).toEqual([]);
  });
});
