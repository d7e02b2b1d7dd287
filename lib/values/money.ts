/**
 * Money rules. Money is kept in integer cents everywhere inside the service; it arrives as dollars
 * with at most 2 decimals (`^\d{1,5}(\.\d{1,2})?$`) and is shown as dollars again at the edge.
 * Sums, the fee and its allocation to books are integer arithmetic only.
 */

/** The service fee: 5 % of the subtotal. */
export const FEE_PERCENT = 5;

/** The shape of an amount of money as clients write it (API.md, "Additions"). */
export const MONEY_PATTERN = /^\d{1,5}(\.\d{1,2})?$/;

/** Dollars as written (`19.99`, `5`, `0.1`) -> integer cents, from the digits (never a float product). */
export function parseMoney(text: string): number {
  if (!MONEY_PATTERN.test(text)) throw new RangeError(`not an amount of money: ${text}`);
  const [whole = '0', frac = ''] = text.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

/**
 * Dollars as a JSON number -> integer cents. The number's shortest decimal form must match the
 * money pattern, so `0.000000001` (`1e-9`) and `19.999999999` are refused rather than rounded.
 */
export function toCents(dollars: number): number {
  if (!Number.isFinite(dollars) || dollars < 0) throw new RangeError(`not a price: ${dollars}`);
  return parseMoney(String(dollars));
}

/** Whether a JSON number is a price the service accepts (see toCents). */
export const isMoney = (dollars: number): boolean =>
  Number.isFinite(dollars) && dollars >= 0 && MONEY_PATTERN.test(String(dollars));

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

/** Subtotal, fee and total of a list of prices in cents. */
export function priceOrder(pricesCents: number[]): Totals {
  const subtotalCents = pricesCents.reduce((sum, p) => sum + p, 0);
  const fee = feeCents(subtotalCents);
  return { subtotalCents, feeCents: fee, totalCents: subtotalCents + fee };
}

/**
 * Splits an order's fee over its books in proportion to their prices, by largest remainder: each
 * book gets the floor of its exact share, and the cents left go one each to the books with the
 * largest remainders (ties: the earlier book). The shares add up to the fee exactly, so
 * cancelling every book of an order takes back exactly the fee it earned.
 */
export function allocateFee(pricesCents: number[], fee: number): number[] {
  const subtotal = pricesCents.reduce((sum, p) => sum + p, 0);
  if (subtotal === 0) return pricesCents.map(() => 0);
  const shares = pricesCents.map((p) => Math.floor((fee * p) / subtotal));
  let left = fee - shares.reduce((sum, s) => sum + s, 0);
  const byRemainder = pricesCents
    .map((p, i) => ({ i, remainder: (fee * p) % subtotal }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left === 0) break;
    shares[i] = (shares[i] ?? 0) + 1;
    left--;
  }
  return shares;
}
