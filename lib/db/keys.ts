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

/** A throttle window for one action and one subject (login failures, resend, reset e-mails). */
export const throttleKey = (action: string, subject: string): ItemKey => ({
  pk: `THROTTLE#${action}#${subject}`,
  sk: 'THROTTLE',
});

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

/**
 * The audit log of dashboard actions: one partition, newest last by time (read backwards for
 * newest first). Admin actions are human-paced and the daily unlisting writes one entry per book,
 * far below a partition's write limit; shard by month (`AUDIT#<yyyy-mm>`) if that ever changes.
 */
export const AUDIT_PK = 'AUDIT';
export const auditKey = (at: string, entryId: string): ItemKey => ({
  pk: AUDIT_PK,
  sk: timeSortKey(at, entryId),
});

/**
 * The user search index (findUsers), kept by a stream processor from user profiles: one item per
 * searchable field and user, `USERSEARCH#E|F|L` / `<lower-cased value>#<userId>`; a prefix search
 * is `begins_with(sk, <lower-cased query>)` on each of the three partitions.
 */
export const UserSearchField = { email: 'E', firstName: 'F', lastName: 'L' } as const;
export type UserSearchFieldCode = (typeof UserSearchField)[keyof typeof UserSearchField];
export const userSearchPk = (field: UserSearchFieldCode): string => `USERSEARCH#${field}`;
export const userSearchKey = (field: UserSearchFieldCode, lowerValue: string, userId: string): ItemKey => ({
  pk: userSearchPk(field),
  sk: `${lowerValue}#${userId}`,
});

/**
 * Orders as the cart area writes them (`ORDER#<id>` / `ORDER`, gsi1 `ORDERS#<status>` by
 * createdAt). The same declarations as the cart section's: drop these two when merging with it.
 */
export const orderKey = (orderId: string): ItemKey => ({ pk: `ORDER#${orderId}`, sk: 'ORDER' });
export const ordersByStatusPk = (status: number): string => `ORDERS#${status}`;
