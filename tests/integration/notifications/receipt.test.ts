/**
 * The buyer's receipt at checkout (lib/notifications/receipt.ts): the order record's INSERT,
 * through the stream consumer, gives the buyer one `ordered` notification opening the order and
 * one e-mail (the `purchases` preference) listing the books, the total and what happens next.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { notificationKey, outboxKey } from '#lib/db/keys.ts';
import { setPreferences } from '#lib/db/preferences.ts';
import { appLinks } from '#lib/mail/links.ts';
import { notificationId } from '#lib/notifications/notify.ts';
import { Notification } from '#lib/notifications/service.ts';
import { Order } from '#lib/orders/schemas.ts';
import * as z from '#lib/zod.ts';
import { makeBook } from '#tests/helpers/books.ts';
import { addToCart, checkout, readItem } from '#tests/helpers/cart.ts';
import { sentEmails } from '#tests/helpers/e2e.ts';
import { getNotifications } from '#tests/helpers/matching.ts';
import { expectEnvelope } from '#tests/helpers/schema.ts';
import { consumeNew, deliverOutbox, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

let reader: StreamReader;
beforeEach(async () => {
  reader = new StreamReader();
  await reader.skipToEnd();
});

async function order(buyer: TestUser) {
  const seller = await makeUser({ firstName: 'Sam' });
  const books = [
    await makeBook(seller, { name: 'Calculus', course: 'MTH101', ISBN: null, price: 12.5 }),
    await makeBook(seller, { name: 'Organic Chemistry', course: 'CHM201', ISBN: null, price: 7.5 }),
  ];
  for (const b of books) expect((await addToCart(buyer.token, b.id)).status).toBe(200);
  const res = await checkout(buyer.token);
  expect(res.status).toBe(201);
  return expectEnvelope(res.json(), Order);
}

const receiptOf = (buyerId: string, orderId: string) =>
  readItem(notificationKey(buyerId, notificationId(buyerId, `ordered#${orderId}`)));

describe("the buyer's receipt at checkout", () => {
  it('notifies the buyer once, opening the order, and e-mails the books, the total and what comes next', async () => {
    const buyer = await makeUser({ firstName: 'Bea' });
    const placed = await order(buyer);
    expect(placed).toMatchObject({ subtotal: 20, fee: 1, total: 21 });
    // delivered twice (at-least-once): one notification, one e-mail
    expect(await consumeNew(reader, 'ORDER#', 2)).toBeGreaterThan(0);
    const message =
      'You ordered 2 books for $21.00. Next: propose a time to hand over on your order page. An administrator checks each book at the hand-over, and you are charged then.';
    const stored = await receiptOf(buyer.id, placed.id);
    expect(stored).toMatchObject({ kind: 'ordered', orderId: placed.id, message, emailState: 'queued' });

    const listed = await getNotifications(buyer.token);
    expect(listed.status).toBe(200);
    const items = expectEnvelope(listed.json(), z.array(Notification));
    expect(items.filter((n) => n.kind === 'ordered')).toEqual([
      {
        id: String(stored?.id),
        kind: 'ordered',
        message,
        date: expect.any(String),
        read: false,
        orderId: placed.id,
        link: `/orders/${placed.id}`,
      },
    ]);

    expect(await readItem(outboxKey(`notif.${String(stored?.id)}`))).toBeDefined();
    expect(await deliverOutbox(reader)).toBe(1);
    const mails = (await sentEmails()).filter((m) => m.destination.to.includes(buyer.record.emailAddress));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Your receipt: 2 books for $21.00');
    const text = mails[0]?.body.text ?? '';
    expect(text).toContain('Hello Bea,');
    expect(text).toContain('- "Calculus" (MTH101): $12.50');
    expect(text).toContain('- "Organic Chemistry" (CHM201): $7.50');
    expect(text).toContain('Books $20.00 + service fee $1.00 = total $21.00.');
    expect(text).toContain('you are charged then');
    expect(text).toContain(`See your order: ${appLinks.order(placed.id)}`);
    expect(mails[0]?.body.html).toContain(`href="${appLinks.order(placed.id)}"`);
  });

  it('still notifies in-app, without an e-mail, a buyer who turned purchase e-mails off', async () => {
    const buyer = await makeUser();
    await setPreferences(buyer.id, { purchases: false });
    const placed = await order(buyer);
    await consumeNew(reader, 'ORDER#');
    expect(await receiptOf(buyer.id, placed.id)).toMatchObject({ kind: 'ordered', emailState: 'none' });
    expect(await deliverOutbox(reader)).toBe(0);
  });
});
