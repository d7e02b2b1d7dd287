/**
 * Conversations in a real browser: a student asks a seller from the book's page on a phone-sized
 * screen, the seller sees the unread badge and answers on a desktop, and the open thread shows the
 * answer by polling (304s while nothing changed). Both pages pass axe.
 */
import { describe, expect, it } from 'vitest';
import { messageReportKey } from '#lib/db/keys.ts';
import { getItem } from '#lib/table/items.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { expectAccessible, listBook, logIn, screenshot } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

describe('messages in the browser', () => {
  it('asks the seller from a book page (phone), the seller answers (desktop), the open thread shows it', async () => {
    const seller = await createConfirmedUser({ firstName: 'Sam' });
    const buyer = await createConfirmedUser({ firstName: 'Bea' });
    const book = await listBook(seller.token);

    const phone = await web().newPage({ width: 390, height: 844 });
    const polls: number[] = [];
    phone.on('response', (r) => {
      if (r.url().includes('/api/user/getConversation/')) polls.push(r.status());
    });
    await logIn(phone, buyer.user.emailAddress);
    await phone.goto(`/books/${book.id}`);
    await phone.getByRole('heading', { level: 1, name: book.name }).waitFor();
    await phone.getByText('Ask the seller').click();
    await phone.getByLabel('Your message').fill('Is it still available? <b>Library</b> at 5?');
    await expectAccessible(phone);
    await phone.getByRole('button', { name: 'Send to Sam' }).click();
    await phone.getByRole('heading', { level: 1, name: 'Conversation with Sam' }).waitFor();
    // shown as text, never as markup
    await phone.getByText('Is it still available? <b>Library</b> at 5?').waitFor();
    await expectAccessible(phone);
    await screenshot(phone, 'messages-thread-phone');
    // while nothing changes, the open thread's poll is answered 304
    await phone.waitForResponse((r) => r.url().includes('/api/user/getConversation/') && r.status() === 304, {
      timeout: 12_000,
    });

    const desktop = await web().newPage({ width: 1280, height: 800 });
    await logIn(desktop, seller.user.emailAddress);
    await desktop.getByRole('link', { name: 'Messages (1 unread)' }).click();
    await desktop.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    await expectAccessible(desktop);
    // the row says when the last message came and shows it, in bold while unread
    const row = desktop.locator('.conversations li', { hasText: `Bea about ${book.name}` });
    const [summary] = (
      (await api('GET', '/api/user/getConversations', { token: seller.token })).body as {
        data: { lastMessage: { at: string } }[];
      }
    ).data;
    expect(await row.locator('time').getAttribute('datetime')).toBe(summary?.lastMessage.at);
    expect(await row.locator('time').textContent()).toMatch(/^(Just now|\d+ min ago)$/);
    expect(await row.locator('.last-message').textContent()).toBe(
      'Is it still available? <b>Library</b> at 5?',
    );
    expect(
      await row
        .getByRole('link')
        .evaluate((a) => a.ownerDocument.defaultView?.getComputedStyle(a).fontWeight),
    ).toBe('700');
    await desktop.getByRole('link', { name: new RegExp(`^Bea about ${book.name}`) }).click();
    await desktop.getByText('Is it still available? <b>Library</b> at 5?').waitFor();
    // the question names the book it asks about (the thread is one per pair, whatever the book),
    // and opens it
    const about = desktop.getByRole('link', { name: `“${book.name}”` });
    expect(await about.getAttribute('href')).toBe(`/books/${book.id}`);
    await expect.poll(() => desktop.getByText(`About “${book.name}”:`).count()).toBe(1);
    await desktop.getByLabel('Your message').fill('Yes. See you at 5.');
    // typed and not sent: still there after another page and a reload (web/src/drafts.ts)
    await desktop.getByRole('link', { name: 'All messages' }).click();
    await desktop.getByRole('link', { name: new RegExp(`^Bea about ${book.name}`) }).click();
    expect(await desktop.getByLabel('Your message').inputValue()).toBe('Yes. See you at 5.');
    await desktop.reload();
    expect(await desktop.getByLabel('Your message').inputValue()).toBe('Yes. See you at 5.');
    await desktop.getByRole('button', { name: 'Send' }).click();
    // (in the thread: a restored box holds the same words)
    const sent = desktop.getByRole('list', { name: 'Messages' }).getByText('Yes. See you at 5.');
    await sent.waitFor();
    // sent: the box is empty, also after a reload
    await expect.poll(() => desktop.getByLabel('Your message').inputValue()).toBe('');
    await desktop.reload();
    await sent.waitFor();
    expect(await desktop.getByLabel('Your message').inputValue()).toBe('');
    // opened: read, so the badge is gone
    await desktop.getByRole('link', { name: 'Messages', exact: true }).waitFor();

    // the buyer's open thread polls every 5 s: the answer shows up without a reload
    await phone.getByText('Yes. See you at 5.').waitFor({ timeout: 15_000 });
    expect(polls).toContain(304);
    // a chat: Sam's answer on the left, the buyer's question on the right, no list numbers; who
    // wrote each is said to screen readers only
    const chat = phone.getByRole('list', { name: 'Messages' });
    const bubbles = chat.getByRole('listitem');
    expect(await bubbles.allTextContents()).toEqual([
      expect.stringMatching(/^You: About “.+”: Is it still available\?/),
      expect.stringMatching(/^Sam: Yes\. See you at 5\./),
    ]);
    expect(
      await chat.evaluate((ol) => ol.ownerDocument.defaultView?.getComputedStyle(ol).listStyleType),
    ).toBe('none');
    const [listBox, mineBox, theirsBox] = [
      await chat.boundingBox(),
      await bubbles.nth(0).boundingBox(),
      await bubbles.nth(1).boundingBox(),
    ];
    expect(listBox && mineBox && theirsBox, 'the chat laid out').toBeTruthy();
    if (listBox && mineBox && theirsBox) {
      expect(listBox.x + listBox.width - (mineBox.x + mineBox.width)).toBeLessThanOrEqual(1);
      expect(mineBox.x - listBox.x).toBeGreaterThan(30);
      expect(theirsBox.x - listBox.x).toBeLessThanOrEqual(1);
    }
    await screenshot(phone, 'messages-chat-phone');
    const list = await api('GET', '/api/user/getConversations', { token: seller.token });
    expect((list.body as { data: { unread: number }[] }).data[0]?.unread).toBe(0);

    // the buyer blocks Sam from the thread (a second tap confirms): no more messages, and Sam's
    // books leave the buyer's search
    const found = async () => {
      const res = await api('GET', `/api/books/search/${encodeURIComponent(book.name)}`, {
        token: buyer.token,
      });
      expect(res.status).toBe(200);
      return (res.body as { data: { id: string }[] }).data.map((b) => b.id).includes(book.id);
    };
    expect(await found()).toBe(true);
    await phone.getByRole('button', { name: 'Block Sam', exact: true }).click();
    await phone.getByRole('group', { name: 'Block Sam?' }).waitFor();
    await expectAccessible(phone);
    await phone.getByRole('button', { name: 'Yes, block Sam' }).click();
    await phone.getByText('You blocked Sam').waitFor();
    await expectAccessible(phone);
    await phone.getByLabel('Your message').fill('Still there?');
    await phone.getByRole('button', { name: 'Send' }).click();
    await phone.getByText("You can't message this person.").waitFor();
    expect(await found()).toBe(false);
    await phone.getByRole('button', { name: 'Unblock Sam' }).click();
    await phone.getByRole('button', { name: 'Block Sam', exact: true }).waitFor();
    expect(await found()).toBe(true);
  });

  it("reports a message of the other side from the thread (phone): the admins get it as it was; one's own has no Report", async () => {
    const seller = await createConfirmedUser({ firstName: 'Sam' });
    const buyer = await createConfirmedUser({ firstName: 'Bea' });
    const admin = await createConfirmedUser({ permissionType: 1 });
    const book = await listBook(seller.token);
    const asked = await api('POST', '/api/user/askSeller', {
      token: buyer.token,
      body: { bookId: book.id, text: 'Pay me by gift card first and I will pick it up.' },
    });
    expect(asked.status).toBe(201);
    const { conversationId, message } = (
      asked.body as { data: { conversationId: string; message: { id: string } } }
    ).data;
    const reply = await api('POST', '/api/user/sendMessage', {
      token: seller.token,
      body: { conversationId, text: 'No, we meet at the point.' },
    });
    expect(reply.status).toBe(201);

    const phone = await web().newPage({ width: 390, height: 844 });
    await logIn(phone, seller.user.emailAddress);
    await phone.goto(`/messages/${encodeURIComponent(conversationId)}`);
    await phone.getByRole('heading', { level: 1, name: 'Conversation with Bea' }).waitFor();
    const items = phone.getByRole('list', { name: 'Messages' }).getByRole('listitem');
    await expect.poll(() => items.count()).toBe(2);
    // Bea's message has a Report; Sam's own has none
    expect(await items.nth(0).getByText('Report', { exact: true }).count()).toBe(1);
    expect(await items.nth(1).getByText('Report', { exact: true }).count()).toBe(0);
    await items.nth(0).getByText('Report', { exact: true }).click();
    await phone.getByLabel('What is wrong with it?').selectOption('scam');
    await phone.getByLabel('Details (optional)').fill('Asks for gift cards.');
    await expectAccessible(phone);
    await phone.getByRole('button', { name: 'Report this message' }).click();
    await phone
      .getByRole('status')
      .filter({ hasText: 'Reported: the administrators will read this conversation.' })
      .waitFor();
    await screenshot(phone, 'messages-report-phone');

    // the administrators' queue holds it, with the message as it was
    const queue = await api('GET', '/api/dashboard/getMessageReports?limit=100', { token: admin.token });
    expect(queue.status).toBe(200);
    const reports = (queue.body as { data: { messageId: string }[] }).data.filter(
      (r) => r.messageId === message.id,
    );
    expect(reports).toEqual([
      {
        conversationId,
        messageId: message.id,
        reporterId: seller.user.id,
        sender: {
          id: buyer.user.id,
          firstName: buyer.user.firstName,
          lastName: buyer.user.lastName,
          emailAddress: buyer.user.emailAddress,
        },
        reporter: {
          id: seller.user.id,
          firstName: seller.user.firstName,
          lastName: seller.user.lastName,
          emailAddress: seller.user.emailAddress,
        },
        reason: 'scam',
        details: 'Asks for gift cards.',
        at: expect.any(String),
        message: {
          senderId: buyer.user.id,
          text: 'Pay me by gift card first and I will pick it up.',
          at: expect.any(String),
        },
      },
    ]);
    // the Reports tab names both sides by name and e-mail, what the users tab finds them by
    const desk = await web().newPage();
    await logIn(desk, admin.user.emailAddress);
    await desk.goto('/dashboard?tab=reports');
    const item = desk.getByRole('article').filter({ hasText: 'Pay me by gift card first' });
    await item
      .getByText(`Sent by ${buyer.user.firstName} ${buyer.user.lastName} (${buyer.user.emailAddress}) on`, {
        exact: false,
      })
      .waitFor();
    await item
      .getByText(
        `reported by ${seller.user.firstName} ${seller.user.lastName} (${seller.user.emailAddress}).`,
        {
          exact: false,
        },
      )
      .waitFor();
    // the day the message was sent reads as on every other page, its exact time as the title
    const sent = item.locator('p', { hasText: 'Sent by' }).locator('time');
    expect(await sent.textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(await sent.getAttribute('title')).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/);
    expect(await item.getAttribute('aria-label')).toMatch(
      /^Report of a message sent [A-Z][a-z]{2} \d{1,2}, \d{4}$/,
    );
    await expectAccessible(desk);
    // the admin reads the thread from the report, then comes back to the queue to decide
    await item.getByRole('link', { name: 'Read the conversation' }).click();
    await desk.getByRole('heading', { name: /^Conversation between / }).waitFor();
    expect(new URL(desk.url()).searchParams.get('conversation')).toBe(conversationId);
    await desk
      .getByRole('list', { name: 'Messages' })
      .getByText('Pay me by gift card first', { exact: false })
      .waitFor();
    await desk.goBack();
    await item.getByRole('button', { name: 'Mark handled' }).waitFor();
    // the admin closes it as handled: it leaves the queue, and the page says what was done
    await item.getByRole('button', { name: 'Mark handled' }).click();
    await desk.getByRole('status').filter({ hasText: 'The report is marked handled.' }).waitFor();
    await expect.poll(() => item.count()).toBe(0);
    const after = await api('GET', '/api/dashboard/getMessageReports?limit=100', { token: admin.token });
    expect(
      (after.body as { data: { messageId: string }[] }).data.filter((r) => r.messageId === message.id),
    ).toEqual([]);
    const stored = await getItem(messageReportKey(conversationId, message.id, seller.user.id));
    expect(stored?.resolution).toMatchObject({ action: 'handled', by: admin.user.id });
  });
});
