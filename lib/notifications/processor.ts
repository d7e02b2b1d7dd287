/**
 * Book status changes -> notifications for the people concerned, run by the stream consumer.
 * The areas that move a book's status only write the status; this processor follows:
 *   0 -> 1 the seller (sold), 1 -> 2 the buyer (verified), 2 -> 3 both (delivered),
 *   1 or 2 -> 0, or 5 for a suspended seller, both (cancelled; the buyer is read from the old image).
 * Each notification's cause is the stream record's id, so a redelivery changes nothing twice.
 */
import { isBookKey } from '#lib/db/keys.ts';
import type { BookRecord } from '#lib/db/records.ts';
import type { ChangeProcessor, StreamChange } from '#lib/streams/types.ts';
import { type StatusKind, statusContent } from './messages.ts';
import { notify } from './notify.ts';

type Party = 'seller' | 'buyer';

/** Who hears about a move from `from` to `to`, and as what kind; empty when nobody does. Pure. */
export function statusAudience(from: number, to: number): { kind: StatusKind; parties: Party[] } | null {
  if (from === 0 && to === 1) return { kind: 'sold', parties: ['seller'] };
  if (from === 1 && to === 2) return { kind: 'verified', parties: ['buyer'] };
  if (from === 2 && to === 3) return { kind: 'delivered', parties: ['seller', 'buyer'] };
  // to 5 when the seller is suspended (lib/dashboard/handover.ts cancelPurchase)
  if ((from === 1 || from === 2) && (to === 0 || to === 5))
    return { kind: 'cancelled', parties: ['seller', 'buyer'] };
  return null;
}

const isBookModify = (c: StreamChange) => c.eventName === 'MODIFY' && isBookKey(c.keys);

async function apply(change: StreamChange): Promise<void> {
  const before = change.oldImage as BookRecord | undefined;
  const after = change.newImage as BookRecord | undefined;
  if (!before || !after || before.status === after.status) return;
  const audience = statusAudience(before.status, after.status);
  if (!audience) return;
  const buyerId = after.buyerId ?? before.buyerId ?? null;
  // a cancel clears the book's order id: the buyer's notice opens the order it was in
  const orderId = after.orderId ?? before.orderId ?? null;
  const facts = { name: after.name, course: after.course, ISBN: after.ISBN };
  for (const party of audience.parties) {
    const userId = party === 'seller' ? after.ownerId : buyerId;
    if (!userId) continue;
    const reason = audience.kind === 'cancelled' ? (after.cancelReason ?? null) : null;
    const content = statusContent(audience.kind, party, facts, reason, {
      relisted: after.status === 0,
      refunded: before.status === 2,
    });
    await notify({
      userId,
      cause: `status#${change.eventId}#${party}`,
      kind: audience.kind,
      bookId: after.id,
      // both open the order (getOrder: the buyer's whole, the seller's part)
      ...(orderId ? { orderId } : {}),
      message: content.message,
      email: content.email,
      category: 'purchases',
    });
  }
}

export const statusNotificationsProcessor: ChangeProcessor = {
  name: 'status-notifications',
  wants: (c) => isBookModify(c) && c.oldImage?.status !== c.newImage?.status,
  apply,
};
