/** What an order charges once some of its books' purchases were cancelled. Pure. */
import type { OrderRecord } from '#lib/db/records.ts';
import { allocateFee, toDollars } from '#lib/values/money.ts';

/**
 * What the order charges now: its books less those whose purchase was cancelled, with their fee
 * shares (a cancelled book is never in a total). The shares are the ones checkout stored on the
 * lines (they add up to the fee exactly); an order placed before lines carried them splits its fee
 * again by the same rule. With nothing cancelled these are the amounts checkout charged.
 */
export function chargedTotals(o: OrderRecord): {
  subtotalCents: number;
  feeCents: number;
  totalCents: number;
} {
  const cancelled = o.cancelledBookIds;
  if (!cancelled || cancelled.size === 0) {
    return { subtotalCents: o.subtotalCents, feeCents: o.feeCents, totalCents: o.totalCents };
  }
  const shares = o.books.every((l) => typeof l.feeCents === 'number')
    ? o.books.map((l) => l.feeCents as number)
    : allocateFee(
        o.books.map((l) => l.priceCents),
        o.feeCents,
      );
  let subtotalCents = 0;
  let feeCents = 0;
  o.books.forEach((line, i) => {
    if (cancelled.has(line.bookId)) return;
    subtotalCents += line.priceCents;
    feeCents += shares[i] ?? 0;
  });
  return { subtotalCents, feeCents, totalCents: subtotalCents + feeCents };
}

/** The same in dollars, as the API shows an order's `subtotal`, `fee` and `total`. */
export function chargedInDollars(o: OrderRecord): { subtotal: number; fee: number; total: number } {
  const t = chargedTotals(o);
  return { subtotal: toDollars(t.subtotalCents), fee: toDollars(t.feeCents), total: toDollars(t.totalCents) };
}
