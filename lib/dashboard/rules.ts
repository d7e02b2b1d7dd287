/**
 * The dashboard's pure rules: which admin move is allowed from which status, money in cents,
 * the unlisting cut-off and the user-search terms. No I/O here.
 */
import { BookStatus, type BookStatusValue } from '#lib/db/records.ts';
import { feeCents } from '#lib/values/money.ts';

export type HandOverAction = 'confirmBook' | 'setBookPaid' | 'cancelPurchase';

/** Each admin move: the statuses it starts from and the status it ends in (API.md, "Book statuses"). */
export const HAND_OVER: Record<HandOverAction, { from: readonly BookStatusValue[]; to: BookStatusValue }> = {
  confirmBook: { from: [BookStatus.Bought], to: BookStatus.Verified },
  setBookPaid: { from: [BookStatus.Verified], to: BookStatus.Paid },
  cancelPurchase: { from: [BookStatus.Bought, BookStatus.Verified], to: BookStatus.Listed },
};

/** Whether `action` may move a book in `status`. */
export const canMove = (action: HandOverAction, status: number): boolean =>
  (HAND_OVER[action].from as readonly number[]).includes(status);

/** The role moves an owner may make: makeAdmin 0 -> 1, revokeAdmin 1 -> 0 (owners are never demoted here). */
export const ROLE_MOVES = {
  makeAdmin: { from: 0, to: 1 },
  revokeAdmin: { from: 1, to: 0 },
} as const;
export type RoleAction = keyof typeof ROLE_MOVES;

/** Integer cents to dollars. */
export const toDollars = (cents: number): number => Math.round(cents) / 100;

/** The fee share of a book bought before checkout stored each book's share: 5 % of its own price. */
export const feeShareCents = (priceCents: number): number => feeCents(priceCents);

export const DEFAULT_UNLIST_AFTER_DAYS = 62;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Listings dated strictly before this instant are stale. */
export const unlistCutoff = (now: Date, olderThanDays: number): string =>
  new Date(now.getTime() - olderThanDays * DAY_MS).toISOString();

/** The lower-cased, trimmed form under which a profile value is searchable (empty: not indexed). */
export const searchForm = (value: unknown): string =>
  typeof value === 'string' ? value.trim().toLowerCase().slice(0, 200) : '';
