/**
 * A hand-over agreed in the browser (issue 34, item 2): a student buys a book; on the order page the
 * buyer proposes a slot at a hand-over point, the seller proposes another from their part of the
 * order (opened from their sales), the buyer accepts it; the order shows it agreed, and an admin finds it on the
 * dashboard's "Today's hand-overs" for that day. On a phone-sized and a desktop viewport, axe clean.
 */
import { describe, expect, it } from 'vitest';
import { getHandover } from '#lib/db/handovers.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { buyOverApi, expectAccessible, listBook, logIn, screenshot } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';
import { fillProposal, handoverScene, tomorrowAt, VIEWPORTS } from '#tests/helpers/handover-web.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

describe('a hand-over agreed in the browser', () => {
  for (const viewport of VIEWPORTS) {
    it(`buyer proposes, the seller counters from their sales, the buyer accepts; the admin sees it on the day (${viewport.name})`, async () => {
      const scene = await handoverScene();
      const { admin, seller, buyer, pointName, book, orderId } = scene;

      const page = await web().newPage({ width: viewport.width, height: viewport.height });
      await fillProposal(page, scene, 11);
      // the book's dated steps (item 3): bought at the order's time, the rest to come
      const steps = page.getByRole('list', { name: 'Steps' });
      expect(await steps.locator('time').getAttribute('datetime')).toBe(scene.createdAt);
      expect(await steps.getByRole('listitem').allInnerTexts()).toEqual([
        expect.stringMatching(/^Bought \S/),
        'Checked and charged: not yet',
        'Handed over and paid: not yet',
      ]);
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Propose this hand-over' }).click();
      await page.getByText('You proposed').waitFor();
      expect(await getHandover(orderId, seller.user.id)).toMatchObject({
        state: 'pending',
        proposedBy: buyer.user.id,
        at: tomorrowAt(11).iso,
      });

      // The seller opens their part of the order from their sales and proposes another time; the
      // buyer sees it and accepts.
      const sales = await web().newPage({ width: viewport.width, height: viewport.height });
      await logIn(sales, seller.user.emailAddress);
      await sales.goto('/orders');
      // a sale waiting for its hand-over says where that is agreed
      await sales.getByRole('link', { name: `See the order of ${book.name} and its hand-over` }).click();
      await sales.getByRole('heading', { name: 'Your sale to Bea' }).waitFor();
      await sales.getByText('You are paid').waitFor();
      await sales.getByText('Bea proposed a hand-over').waitFor();
      // Accept / Decline come first; a time of one's own is folded under "Propose another time"
      expect(await sales.getByLabel('Hand-over time with Bea').isVisible()).toBe(false);
      await sales.getByText('Propose another time', { exact: true }).click();
      await sales.getByLabel('Hand-over point with Bea').selectOption({ label: pointName });
      await sales.getByLabel('Hand-over time with Bea').fill(tomorrowAt(13).local);
      await expectAccessible(sales);
      await sales.getByRole('button', { name: 'Propose this hand-over' }).click();
      await sales.getByText('You proposed').waitFor();
      await screenshot(sales, `handover-seller-${viewport.name}`);
      expect(await getHandover(orderId, seller.user.id)).toMatchObject({
        state: 'pending',
        proposedBy: seller.user.id,
        at: tomorrowAt(13).iso,
      });
      await page.reload();
      await page.getByText('Sam proposed a hand-over').waitFor();
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Accept the hand-over' }).click();
      await page.getByText('Hand-over agreed:').waitFor();
      // agreed: no blank form under it, only the way to move it
      await page.getByText('Propose another time', { exact: true }).waitFor();
      expect(await page.getByLabel('Hand-over time with Sam').isVisible()).toBe(false);
      await expectAccessible(page);
      await screenshot(page, `handover-order-${viewport.name}`);
      expect(await getHandover(orderId, seller.user.id)).toMatchObject({
        state: 'agreed',
        at: tomorrowAt(13).iso,
      });

      const desk = await web().newPage({ width: viewport.width, height: viewport.height });
      await logIn(desk, admin.user.emailAddress);
      await desk.goto('/dashboard?tab=today');
      await desk.getByRole('heading', { name: "Today's hand-overs" }).waitFor();
      await desk.getByLabel('Day', { exact: true }).fill(tomorrowAt(13).day);
      await desk.getByRole('heading', { name: `Hand-overs of ${tomorrowAt(13).day}` }).waitFor();
      await desk.getByRole('heading', { name: new RegExp(pointName) }).waitFor();
      await desk.getByText(new RegExp(`Books: .*${book.name}`)).waitFor();
      // who comes, and how to reach them
      await desk
        .getByText(
          `Seller: ${seller.user.firstName} ${seller.user.lastName} (${seller.user.emailAddress}, ${seller.user.campusMailbox})`,
          { exact: false },
        )
        .first()
        .waitFor();
      await expectAccessible(desk);
      await screenshot(desk, `handover-today-${viewport.name}`);

      // At the hand-over the admin checks the book, then cancels it: the buyer's order dates both
      // steps and gives the reason.
      const move = (action: string, body: Record<string, unknown>) =>
        api('POST', `/api/dashboard/${action}`, { token: admin.token, body });
      expect((await move('confirmBook', { bookId: book.id })).status).toBe(200);
      expect((await move('cancelPurchase', { bookId: book.id, reason: 'The cover is torn.' })).status).toBe(
        200,
      );
      // the day's list keeps the slot, marked: nobody needs to come
      await desk.reload();
      await desk.getByLabel('Day', { exact: true }).fill(tomorrowAt(13).day);
      const slot = desk.getByRole('article').filter({ hasText: book.name });
      await slot.getByRole('heading', { name: new RegExp(`^Cancelled: .*${pointName}`) }).waitFor();
      await slot.getByText('Every book of this hand-over was cancelled: nobody needs to come.').waitFor();
      // the seller's part of the order no longer promises a payment
      await sales.reload();
      await sales
        .getByText('This sale was cancelled: there is nothing to hand over, and nothing is paid.')
        .waitFor();
      expect(await sales.getByText('You are paid').count()).toBe(0);
      await page.reload();
      await page.getByText('Cancelled', { exact: true }).waitFor();
      const texts = await steps.getByRole('listitem').allInnerTexts();
      expect(texts).toEqual([
        expect.stringMatching(/^Bought \S/),
        expect.stringMatching(/^Checked and charged \S/),
        expect.stringMatching(/^Cancelled and refunded \S.*: The cover is torn\.$/),
      ]);
      expect(await steps.locator('time').count()).toBe(3);
      await expectAccessible(page);
      await screenshot(page, `order-timeline-${viewport.name}`);
    });
  }
  it('lets the buyer write to the seller from the order before anyone has, then links the thread (phone)', async () => {
    const scene = await handoverScene();
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, scene.buyer.user.emailAddress);
    await page.goto(`/orders/${scene.orderId}`);
    await page.getByRole('heading', { name: 'Hand-over', exact: true }).waitFor();
    // no thread yet: no link to one, a first message instead
    expect(await page.getByRole('link', { name: 'Messages with Sam' }).count()).toBe(0);
    await page.getByText('Write to Sam').click();
    await expect.poll(() => page.getByLabel('Your message').inputValue()).toContain('hand-over');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Send to Sam' }).click();
    await page.getByRole('heading', { level: 1, name: 'Conversation with Sam' }).waitFor();
    await page.getByText(`About “${scene.book.name}”:`).waitFor();
    const conversationId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    const thread = await api('GET', `/api/user/getConversation/${encodeURIComponent(conversationId)}`, {
      token: scene.seller.token,
    });
    expect(thread.status).toBe(200);
    const [message] = (thread.body as { data: { messages: { text: string; bookId?: string }[] } }).data
      .messages;
    expect(message).toMatchObject({ bookId: scene.book.id, text: expect.stringContaining('hand-over') });

    // back on the order: the thread is linked, and the seller's view of the order links it too
    await page.goto(`/orders/${scene.orderId}`);
    const link = page.getByRole('link', { name: 'Messages with Sam' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/messages/${conversationId}`);
    expect(await page.getByText('Write to Sam').count()).toBe(0);
    await expectAccessible(page);
    const sales = await web().newPage({ width: 390, height: 844 });
    await logIn(sales, scene.seller.user.emailAddress);
    await sales.goto(`/orders/${scene.orderId}`);
    const back = sales.getByRole('link', { name: 'Messages with Bea' });
    await back.waitFor();
    expect(await back.getAttribute('href')).toBe(`/messages/${conversationId}`);
  });
  it('lets the seller write first where the campus has no hand-over point yet, and says so (phone)', async () => {
    // a campus of its own, so no other test's point is there
    const campus = `nopoint-${Date.now().toString(36)}.edu`;
    const seller = await createConfirmedUser({ firstName: 'Sam', emailAddress: `sam@${campus}` });
    const buyer = await createConfirmedUser({ firstName: 'Bea', emailAddress: `bea@${campus}` });
    const book = await listBook(seller.token);
    const order = await buyOverApi(buyer.token, book.id);
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, seller.user.emailAddress);
    await page.goto(`/orders/${order.id}`);
    await page.getByRole('heading', { name: 'Hand-over', exact: true }).waitFor();
    // no point: no form, the reason and the way on, and the first message the seller may send
    await page
      .getByText(
        'Your campus has no hand-over point yet, so no time can be proposed. The administrators add them; until then, write to Bea here.',
      )
      .waitFor();
    expect(await page.getByRole('button', { name: 'Propose this hand-over' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Messages with Bea' }).count()).toBe(0);
    await page.getByText('Write to Bea', { exact: true }).click();
    await expect.poll(() => page.getByLabel('Your message').inputValue()).toContain('hand-over');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Send to Bea' }).click();
    await page.getByRole('heading', { level: 1, name: 'Conversation with Bea' }).waitFor();
    await page.getByText(`About “${book.name}”:`).waitFor();
    const conversationId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

    // the buyer has it: their thread holds the seller's message about the book, their order links it
    const thread = await api('GET', `/api/user/getConversation/${encodeURIComponent(conversationId)}`, {
      token: buyer.token,
    });
    expect(thread.status).toBe(200);
    const { messages } = (
      thread.body as { data: { messages: { senderId: string; text: string; bookId?: string }[] } }
    ).data;
    expect(messages).toEqual([
      expect.objectContaining({
        senderId: seller.user.id,
        bookId: book.id,
        text: 'Hello, when and where would suit you for the hand-over?',
      }),
    ]);
    const theirs = await web().newPage({ width: 390, height: 844 });
    await logIn(theirs, buyer.user.emailAddress);
    await theirs.goto(`/orders/${order.id}`);
    const link = theirs.getByRole('link', { name: 'Messages with Sam' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/messages/${conversationId}`);
  });
});
