/**
 * Money rules. Prices arrive in dollars with at most 2 decimals; every sum is done in integer
 * cents so no float drift can creep in, and shown in dollars again at the edge.
 */

/** The service fee: 5 % of the subtotal. */
export const FEE_PERCENT = 5;

/** Dollars (at most 2 decimals) -> integer cents. Refuses anything that is not a whole number of cents. */
export function toCents(dollars: number): number {
  if (!Number.isFinite(dollars) || dollars < 0) throw new RangeError(`not a price: ${dollars}`);
  const cents = Math.round(dollars * 100);
  if (Math.abs(cents - dollars * 100) > 1e-6) throw new RangeError(`more than 2 decimals: ${dollars}`);
  return cents;
}

/** Integer cents -> dollars, exact to 2 decimals. */
export function toDollars(cents: number): number {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  return Number((cents / 100).toFixed(2));
}

/** 5 % of a subtotal in cents, rounded half up to a whole cent (integer arithmetic only). */
export function feeCents(subtotalCents: number): number {
  if (!Number.isSafeInteger(subtotalCents) || subtotalCents < 0) {
    throw new RangeError(`not a subtotal: ${subtotalCents}`);
  }
  return Math.floor((subtotalCents * FEE_PERCENT + 50) / 100);
}

export interface Totals {
  subtotalCents: number;
  feeCents: number;
  totalCents: number;
}

/** Subtotal, fee and total of a list of prices in dollars. */
export function priceOrder(pricesInDollars: number[]): Totals {
  const subtotalCents = pricesInDollars.reduce((sum, p) => sum + toCents(p), 0);
  const fee = feeCents(subtotalCents);
  return { subtotalCents, feeCents: fee, totalCents: subtotalCents + fee };
}
