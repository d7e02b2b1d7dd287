/**
 * The buyer's receipt at checkout: an order written (its record's INSERT) -> an `ordered`
 * notification and e-mail to the buyer (the `purchases` preference) listing the books, the total
 * and what happens next, opening the order (/orders/<orderId>). Run by the stream consumer, so
 * checkout stays one transaction; the cause is the order id, so a redelivered record (or a second
 * record of the same order) makes one notification and one e-mail.
 */
import { isOrderKey } from '#lib/db/keys.ts';
import type { OrderRecord } from '#lib/db/records.ts';
import type { ChangeProcessor, StreamChange } from '#lib/streams/types.ts';
import { receiptContent } from './messages.ts';
import { notify } from './notify.ts';

async function apply(change: StreamChange): Promise<void> {
  const order = change.newImage as OrderRecord | undefined;
  if (!order?.buyerId || !Array.isArray(order.books)) return;
  const content = receiptContent({
    books: order.books.map((b) => ({
      name: b.name,
      course: b.course,
      ISBN: b.ISBN,
      priceCents: b.priceCents,
    })),
    subtotalCents: order.subtotalCents,
    feeCents: order.feeCents,
    totalCents: order.totalCents,
  });
  await notify({
    userId: order.buyerId,
    cause: `ordered#${order.id}`,
    kind: 'ordered',
    orderId: order.id,
    category: 'purchases',
    ...content,
  });
}

export const receiptProcessor: ChangeProcessor = {
  name: 'order-receipt',
  wants: (c) => c.eventName === 'INSERT' && isOrderKey(c.keys),
  apply,
};
