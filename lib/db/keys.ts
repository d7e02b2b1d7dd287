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
