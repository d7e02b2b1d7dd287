/**
 * The key schema: the only module that knows PK/SK/GSI strings.
 *
 * One table, generic attributes: pk/sk, gsi1pk/gsi1sk, gsi2pk/gsi2sk, gsi3pk/gsi3sk, ttl.
 * Every entity declares its keys here; repositories call these builders and never concatenate
 * key strings themselves. The README's "Key schema" table mirrors this file.
 */

export const INDEX = {
  gsi1: 'gsi1',
  gsi2: 'gsi2',
  gsi3: 'gsi3',
} as const;

export interface ItemKey {
  pk: string;
  sk: string;
}

/** Sort keys that order newest-last by time, ties broken by id (ULIDs are time-ordered too). */
export const timeSortKey = (isoDate: string, id: string): string => `${isoDate}#${id}`;

// ---------------------------------------------------------------------------------------------
// Accounts
// ---------------------------------------------------------------------------------------------

/** A user's profile (and the partition of everything the user owns: cart, requests, ...). */
export const userKey = (userId: string): ItemKey => ({ pk: `USER#${userId}`, sk: 'PROFILE' });
export const userPartition = (userId: string): string => `USER#${userId}`;

/** All users, oldest first (admin listing): gsi1. */
export const usersIndex = (createdAt: string, userId: string) => ({
  gsi1pk: 'USERS',
  gsi1sk: timeSortKey(createdAt, userId),
});
export const USERS_INDEX_PK = 'USERS';

/** Uniqueness of an e-mail address (normalised, lower case). */
export const emailKey = (normalisedEmail: string): ItemKey => ({
  pk: `EMAIL#${normalisedEmail}`,
  sk: 'EMAIL',
});

/** A single-use e-mailed token (confirmation or reset), addressed by the SHA-256 of the token. */
export const tokenKey = (tokenHash: string): ItemKey => ({ pk: `TOKEN#${tokenHash}`, sk: 'TOKEN' });

/**
 * Pending sign-ups of one address, newest last (gsi1 on the `confirm` token items): resending the
 * confirmation e-mail finds the latest pending sign-up without knowing its token.
 */
export const pendingSignupIndex = (normalisedEmail: string, createdAt: string, tokenHash: string) => ({
  gsi1pk: pendingSignupsPk(normalisedEmail),
  gsi1sk: timeSortKey(createdAt, tokenHash),
});
export const pendingSignupsPk = (normalisedEmail: string): string => `PENDING#${normalisedEmail}`;

/** A throttle window for one action and one subject (login failures, resend, reset e-mails). */
export const throttleKey = (action: string, subject: string): ItemKey => ({
  pk: `THROTTLE#${action}#${subject}`,
  sk: 'THROTTLE',
});

/** The fixed-window counter of one action and subject: the window's start (epoch seconds) is part of the key. */
export const throttleWindowKey = (action: string, subject: string, windowStart: number): ItemKey =>
  throttleKey(action, `${subject}#${windowStart}`);

// ---------------------------------------------------------------------------------------------
// Books
// ---------------------------------------------------------------------------------------------

export const bookKey = (bookId: string): ItemKey => ({ pk: `BOOK#${bookId}`, sk: 'BOOK' });

/**
 * A book's index attributes, derived from its status, date, owner and buyer. Write them whenever
 * one of those changes (e.g. checkout sets status 1 and the buyer: gsi1pk and gsi3 change too).
 *  - gsi1: books of one status by date (`BOOKS#S0` = the public listing, newest first when read
 *    backwards; `BOOKS#S1`.. for the dashboard; oldest `BOOKS#S0` first for the daily unlisting);
 *  - gsi2: books of one owner by date (getUsersPosts, getSoldBooks);
 *  - gsi3: books of one buyer by purchase time (getPurchasedBooks), only once bought.
 */
export const bookIndexes = (b: {
  id: string;
  status: number;
  date: string;
  ownerId: string;
  buyerId?: string | null;
  boughtAt?: string | null;
}) => ({
  gsi1pk: booksByStatusPk(b.status),
  gsi1sk: timeSortKey(b.date, b.id),
  gsi2pk: `OWNER#${b.ownerId}`,
  gsi2sk: timeSortKey(b.date, b.id),
  ...(b.buyerId && b.boughtAt ? { gsi3pk: `BUYER#${b.buyerId}`, gsi3sk: timeSortKey(b.boughtAt, b.id) } : {}),
});
export const booksByStatusPk = (status: number): string => `BOOKS#S${status}`;
export const booksOfOwnerPk = (ownerId: string): string => `OWNER#${ownerId}`;
export const booksOfBuyerPk = (buyerId: string): string => `BUYER#${buyerId}`;

// ---------------------------------------------------------------------------------------------
// Requests and matching
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Cart, orders, idempotency
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Notifications
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Dashboard: counters and audit log
// ---------------------------------------------------------------------------------------------

/**
 * Service-wide counters, one item, moved with ADD in the same transaction as the change they count:
 * totalUsers, totalBooks, books_s0..books_s5 (books by status), totalOrders, grossSales, feesEarned.
 */
export const globalStatsKey = (): ItemKey => ({ pk: 'STATS', sk: 'GLOBAL' });

/**
 * A user's counters, one item, moved with ADD in the same transaction as the change they count:
 * booksBought, booksSold, moneyMade (cents, from status 3 only), activeListings, openRequests.
 */
export const userStatsKey = (userId: string): ItemKey => ({ pk: `USER#${userId}`, sk: 'STATS' });
