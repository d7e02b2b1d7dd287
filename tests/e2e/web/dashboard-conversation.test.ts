/**
 * An admin reads a purchase's conversation from the hand-over queue (issue 34, item 8): the queue
 * item links to the buyer and seller's thread; the dashboard shows both participants and the
 * messages as text, newest page first with "Older messages", and says the read is recorded; the
 * audit log (read back through the API) holds the read. Phone and desktop, axe clean.
 */
import { monotonicFactory } from 'ulid';
import { describe, expect, it } from 'vitest';
import { appendMessage, conversationIdOf } from '#lib/db/conversations.ts';
import { bookIndexes, bookKey } from '#lib/db/keys.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { PutCommand } from '#lib/table/commands.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { expectAccessible, logIn, screenshot } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';
import { VIEWPORTS } from '#tests/helpers/handover-web.ts';
import { seedOrder } from '#tests/helpers/orders.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();
const nextId = monotonicFactory();
const FIRST = 'Is it still available? <b>Library</b> at 5?';

describe("the admins' view of a purchase's conversation", () => {
  for (const viewport of VIEWPORTS) {
    it(`opens from the queue, shows the messages as text with older pages, and is audited (${viewport.name})`, async () => {
      const admin = await createConfirmedUser({ permissionType: 1 });
      const seller = await createConfirmedUser({ firstName: 'Sam' });
      const buyer = await createConfirmedUser({ firstName: 'Bea' });
      const order = await seedOrder(buyer.user.id, [{ sellerId: seller.user.id, status: 1 }]);
      const seeded = order.books[0];
      if (!seeded) throw new Error('no book seeded');
      // listed long ago, so it leads the status-1 queue (oldest listing first) in a shared table
      const book = {
        ...seeded,
        name: `Queue Book ${Math.random().toString(36).slice(2, 8)}`,
        ownerFirstName: 'Sam',
        date: '2001-01-01T00:00:00.000Z',
      };
      await db.send(
        new PutCommand({ TableName: TABLE, Item: { ...bookKey(book.id), ...bookIndexes(book), ...book } }),
      );

      // The buyer asks the seller (the first message), then 50 more: the first is on the older page.
      const asked = await api('POST', '/api/user/askSeller', {
        token: buyer.token,
        body: { bookId: book.id, text: FIRST },
      });
      expect(asked.status).toBe(201);
      const conversationId = conversationIdOf(buyer.user.id, seller.user.id);
      const sam = { id: seller.user.id, firstName: 'Sam' };
      const bea = { id: buyer.user.id, firstName: 'Bea' };
      for (let i = 1; i <= 50; i++) {
        const outcome = await appendMessage({
          conversationId,
          sender: i % 2 ? sam : bea,
          recipient: i % 2 ? bea : sam,
          message: { id: nextId(), text: `Message number ${i}`, at: new Date().toISOString() },
        });
        expect(outcome.ok).toBe(true);
      }

      const page = await web().newPage({ width: viewport.width, height: viewport.height });
      await logIn(page, admin.user.emailAddress);
      await page.goto('/dashboard?tab=queues');
      const item = page.getByRole('article', { name: book.name });
      await item.getByText(/^Waiting /).waitFor();
      await expectAccessible(page);
      await item.getByRole('link', { name: 'Read their conversation' }).click();

      // participants in id order (the conversation keeps them sorted)
      const [a, b] = [bea, sam].sort((x, y) => (x.id < y.id ? -1 : 1)) as [typeof bea, typeof sam];
      await page
        .getByRole('heading', { name: `Conversation between ${a.firstName} and ${b.firstName}` })
        .waitFor();
      expect(new URL(page.url()).searchParams.get('conversation')).toBe(conversationId);
      await page.getByText('Your reading is recorded in the audit log.').waitFor();
      await page.getByText(`${a.firstName} (user ${a.id}) and ${b.firstName} (user ${b.id})`).waitFor();
      await page.getByText('Message number 50', { exact: true }).waitFor();
      expect(await page.getByText(FIRST, { exact: true }).count()).toBe(0);
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Older messages' }).click();
      // the first message, shown as text (never as markup), above the newer ones
      await page.getByText(FIRST, { exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Older messages' }).count()).toBe(0);
      const texts = await page
        .getByRole('list', { name: 'Messages' })
        .getByRole('listitem')
        .allTextContents();
      expect(texts).toHaveLength(51);
      expect(texts[0]).toContain(FIRST);
      expect(texts[50]).toContain('Message number 50');
      await expectAccessible(page);
      await screenshot(page, `dashboard-conversation-${viewport.name}`);

      // Each page read is in the audit log, as the admin's read of this conversation.
      const audit = await api('GET', '/api/dashboard/getAuditLog?limit=100', { token: admin.token });
      expect(audit.status).toBe(200);
      const reads = (
        audit.body as { data: { action: string; actor: string; target: { kind: string; id: string } }[] }
      ).data.filter((a) => a.action === 'readConversation' && a.target.id === conversationId);
      expect(reads.length).toBeGreaterThanOrEqual(2);
      expect(reads.every((a) => a.actor === admin.user.id && a.target.kind === 'conversation')).toBe(true);
    });
  }
});
