/**
 * The stored shapes of the entities several areas share. Keys and index attributes come from
 * lib/db/keys.ts; API shapes (what clients see) are separate zod schemas in lib/<domain>/.
 */

/** USER#<id> / PROFILE */
export interface UserRecord {
  type: 'user';
  id: string;
  /** as typed at sign-up, trimmed */
  emailAddress: string;
  /** lower-cased, trimmed: the uniqueness key (EMAIL#<emailNormalised>) */
  emailNormalised: string;
  firstName: string;
  lastName: string;
  university: string;
  campusMailbox: string;
  paymentUsername: string;
  /** 0 user, 1 admin, 2 owner */
  permissionType: number;
  createdAt: string;
  passwordHash: string;
  /** bumped on password change/reset; tokens carry it as `tv` */
  tokenVersion: number;
}

/** Book statuses (see API.md): 0 listed, 1 bought, 2 verified/charged, 3 delivered/paid, 5 unlisted. */
export const BookStatus = { Listed: 0, Bought: 1, Verified: 2, Paid: 3, Unlisted: 5 } as const;
export type BookStatusValue = (typeof BookStatus)[keyof typeof BookStatus];

/** BOOK#<id> / BOOK, plus bookIndexes(...) attributes */
export interface BookRecord {
  type: 'book';
  id: string;
  name: string;
  edition: number;
  course: string;
  /** course code normalised (upper case, no spaces or hyphens): `CSC171` */
  courseNorm: string;
  /** dollars, at most 2 decimals */
  price: number;
  condition: string;
  comments: string;
  /** ISBN-13 digits, or null */
  ISBN: string | null;
  status: BookStatusValue;
  /** listing date (ISO-8601 UTC); refreshed on reactivation */
  date: string;
  ownerId: string;
  /** the owner's first name, for display */
  ownerFirstName: string;
  buyerId?: string | null;
  /** when it was checked out */
  boughtAt?: string | null;
  /** the order it was bought in */
  orderId?: string | null;
}
