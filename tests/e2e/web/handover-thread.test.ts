/**
 * A hand-over answered inside the conversation (issue 34, item 7): the buyer proposes a slot from
 * the order page; the seller, who has no order page, sees the proposal as a hand-over step in their
 * thread with Accept / Decline. A proposal replaced meanwhile answers 409: the thread says so in a
 * sentence and refreshes, and its buttons move to the newer proposal; the seller accepts that one;
 * the buyer's thread links the step to the order, which shows it agreed. Phone and desktop, axe clean.
 */
import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { conversationIdOf } from '#lib/db/conversations.ts';
import { getHandover } from '#lib/db/handovers.ts';
import { expectAccessible, logIn, screenshot } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';
import { fillProposal, handoverScene, tomorrowAt, VIEWPORTS } from '#tests/helpers/handover-web.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

describe('a hand-over answered in the thread', () => {
  for (const viewport of VIEWPORTS) {
    it(`the buyer proposes on the order page, the seller accepts in the thread (${viewport.name})`, async () => {
      const scene = await handoverScene();
      const { seller, buyer, pointName, pointId, orderId } = scene;
      const conversationId = conversationIdOf(buyer.user.id, seller.user.id);

      const orderPage = await web().newPage({ width: viewport.width, height: viewport.height });
      await fillProposal(orderPage, scene, 11);
      await orderPage.getByRole('button', { name: 'Propose this hand-over' }).click();
      await orderPage.getByText('You proposed').waitFor();
      const first = await getHandover(orderId, seller.user.id);
      expect(first).toMatchObject({ state: 'pending', proposedBy: buyer.user.id, at: tomorrowAt(11).iso });

      // The seller opens the thread: the proposal is a hand-over step with Accept / Decline.
      const thread = await web().newPage({ width: viewport.width, height: viewport.height });
      await logIn(thread, seller.user.emailAddress);
      await thread.goto(`/messages/${conversationId}`);
      await thread.getByRole('heading', { level: 1, name: 'Conversation with Bea' }).waitFor();
      await thread.getByText(new RegExp(`^Proposed a hand-over: .*at ${pointName}, Front desk`)).waitFor();
      const accept = thread.getByRole('button', { name: 'Accept the hand-over' });
      expect(await accept.count()).toBe(1);
      await expect(thread.getByRole('button', { name: 'Decline the hand-over' }).count()).resolves.toBe(1);
      // the order page is the buyer's: no link to it for the seller
      expect(await thread.getByRole('link', { name: 'Open the order' }).count()).toBe(0);
      await expectAccessible(thread);

      // Meanwhile the buyer proposes another time; the seller's thread has not polled it yet (its
      // polls answer 304 while held), so the seller answers the replaced proposal: 409.
      let hold = true;
      await thread.route('**/api/user/getConversation/**', (route: Route) =>
        hold ? route.fulfill({ status: 304 }) : route.continue(),
      );
      const newer = await api('POST', '/api/user/proposeHandover', {
        token: buyer.token,
        body: { orderId, sellerId: seller.user.id, pointId, at: tomorrowAt(12).iso },
      });
      expect(newer.status).toBe(200);
      await accept.click();
      hold = false;
      await thread.getByText('This proposal was replaced by a newer one.').waitFor();
      // the refusal refreshed the thread: the first step is marked stale, the newer one answerable
      await thread.getByText('replaced by a newer proposal').waitFor();
      expect(await thread.getByRole('button', { name: 'Accept the hand-over' }).count()).toBe(1);
      expect(await getHandover(orderId, seller.user.id)).toMatchObject({
        state: 'pending',
        at: tomorrowAt(12).iso,
      });
      await expectAccessible(thread);

      await thread.getByRole('button', { name: 'Accept the hand-over' }).click();
      await thread.getByText(/^Agreed to the hand-over: /).waitFor();
      expect(await thread.getByRole('button', { name: 'Accept the hand-over' }).count()).toBe(0);
      await thread.getByText(/ · answered$/).waitFor();
      await expectAccessible(thread);
      await screenshot(thread, `handover-thread-${viewport.name}`);
      const agreed = await getHandover(orderId, seller.user.id);
      expect(agreed).toMatchObject({ state: 'agreed', at: tomorrowAt(12).iso, proposedBy: buyer.user.id });
      expect(agreed?.proposalId).not.toBe(first?.proposalId);

      // The buyer's thread shows the steps, each linked to the order, which shows it agreed.
      await orderPage.goto(`/messages/${conversationId}`);
      await orderPage.getByText(/^Agreed to the hand-over: /).waitFor();
      expect(await orderPage.getByRole('button', { name: 'Accept the hand-over' }).count()).toBe(0);
      await expectAccessible(orderPage);
      await orderPage.getByRole('link', { name: 'Open the order' }).last().click();
      await orderPage.getByText(`Hand-over agreed: `, { exact: false }).waitFor();
      expect(new URL(orderPage.url()).pathname).toBe(`/orders/${orderId}`);
    });
  }
});
