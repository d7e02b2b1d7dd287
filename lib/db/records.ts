/**
 * The stored shapes of the entities several areas share. Keys and index attributes come from
 * lib/db/keys.ts; API shapes (what clients see) are separate zod schemas in lib/<domain>/.
 */
import type { ConditionGrade } from '#lib/values/condition.ts';

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
  /** the last two labels of the address's domain (lib/values/campus.ts); absent on users seeded without one */
  campus?: string;
  campusMailbox: string;
  paymentUsername: string;
  /** 0 user, 1 admin, 2 owner */
  permissionType: number;
  createdAt: string;
  passwordHash: string;
  /** bumped on password change/reset; tokens carry it as `tv` */
  tokenVersion: number;
  /** set by a moderator's suspension (lib/db/suspensions.ts), removed by reinstating */
  suspended?: boolean;
}

/** Book statuses (see API.md): 0 listed, 1 bought, 2 verified/charged, 3 delivered/paid, 5 unlisted. */
export const BookStatus = { Listed: 0, Bought: 1, Verified: 2, Paid: 3, Unlisted: 5 } as const;
export type BookStatusValue = (typeof BookStatus)[keyof typeof BookStatus];
/** The statuses of a book someone bought: from checkout until it is handed over and paid. */
export const SOLD_STATUSES: readonly BookStatusValue[] = [
  BookStatus.Bought,
  BookStatus.Verified,
  BookStatus.Paid,
];
export const isSold = (status: number): boolean => (SOLD_STATUSES as readonly number[]).includes(status);
/** The book is still bought in `orderId` (a cancel relists it and clears its order id). */
export const stillInOrder = (book: BookRecord | undefined, orderId: string): boolean =>
  book?.orderId === orderId && isSold(book.status);

/** BOOK#<id> / BOOK, plus bookIndexes(...) attributes */
export interface BookRecord {
  type: 'book';
  id: string;
  name: string;
  edition: number;
  course: string;
  /** course code normalised (upper case, no spaces or hyphens): `CSC171` */
  courseNorm: string;
  /** integer cents (shown as dollars) */
  priceCents: number;
  condition: ConditionGrade;
  /** optional, 1..200 chars; searchable by its words like the title */
  author?: string | null;
  comments: string;
  /** ISBN-13 digits, or null */
  ISBN: string | null;
  status: BookStatusValue;
  /** listing date (ISO-8601 UTC); refreshed on reactivation */
  date: string;
  ownerId: string;
  /** the owner's first name, for display */
  ownerFirstName: string;
  /** the owner's campus (lib/values/campus.ts); absent on books of a user without one */
  campus?: string | null;
  buyerId?: string | null;
  /** when it was checked out */
  boughtAt?: string | null;
  /** the order it was bought in */
  orderId?: string | null;
  /** when an admin verified it and charged its buyer (confirmBook, 1 -> 2); cleared with boughtAt on a cancel */
  verifiedAt?: string | null;
  /** when an admin handed it over and paid its seller (setBookPaid, 2 -> 3) */
  deliveredAt?: string | null;
  /** when the stuck-purchase job reminded buyer, seller and admins of this purchase (lib/dashboard/stuck-purchases.ts) */
  stuckRemindedAt?: string | null;
  /** why its last purchase was cancelled (an admin's words, or the hand-over job's); told to both sides */
  cancelReason?: string | null;
  /** distinct people who reported it since the last resolution (lib/moderation) */
  reportCount?: number;
  /** of those, the reports that count towards hiding (an established reporter with weight) */
  weightedCount?: number;
  /** true once REPORTS_TO_HIDE counted reports reached it, until an admin resolves it: bought by nobody, shown to nobody but its owner and admins */
  hidden?: boolean;
  /** this book's share of its order's fee (cents), allocated once at checkout; cancelPurchase takes it back */
  feeCents?: number | null;
  /** the ISBN lookup's cover (lib/books/cover-url.ts): the book's picture while it has no photos; null once taken off */
  coverUrl?: string | null;
  /** processed photos, in the order they were attached (the first is the book's picture) */
  photos?: PhotoRecord[];
  /** pending upload slots by photo id (lib/photos/rules.ts); they count toward the 5 until they expire */
  photoSlots?: Record<string, { contentType: 'image/jpeg' | 'image/png' | 'image/webp'; expiresAt: number }>;
  /** bumped on every change of photos or slots: the condition that makes the count race-free */
  photoVersion?: number;
}

/** One processed photo of a book; its files are named after the ids (lib/photos/store.ts). */
export interface PhotoRecord {
  id: string;
}

/** USER#<userId> / CART#<bookId>: one book in a user's cart. A cart never reserves the book. */
export interface CartItemRecord {
  type: 'cartItem';
  userId: string;
  bookId: string;
  addedAt: string;
  /** the book as it was when added: shown (unavailable) if the book is later deleted for good */
  snapshot: CartBookSnapshot;
}

export type CartBookSnapshot = Pick<
  BookRecord,
  | 'id'
  | 'name'
  | 'edition'
  | 'course'
  | 'courseNorm'
  | 'priceCents'
  | 'condition'
  | 'author'
  | 'comments'
  | 'ISBN'
  | 'date'
  | 'ownerId'
  | 'ownerFirstName'
>;

/**
 * What a buyer saw of a book when they carted it (its card and page show these): checkout charges
 * only a book none of them changed since (else 409), read against the cart item's snapshot.
 */
export const SEEN_FIELDS = [
  'priceCents',
  'name',
  'edition',
  'course',
  'ISBN',
  'author',
  'condition',
] as const satisfies readonly (keyof CartBookSnapshot)[];
export type SeenField = (typeof SEEN_FIELDS)[number];

/** USER#<uid> / SAVED#<bookId> (lib/db/saved.ts): a book the user keeps an eye on. */
export interface SavedBookRecord {
  type: 'savedBook';
  userId: string;
  bookId: string;
  savedAt: string;
  /** the book as it was when saved: its price then, and what is shown if it is later deleted for good */
  snapshot: CartBookSnapshot;
}

/** One book of an order, as it was when bought. Money in integer cents. */
export interface OrderLineRecord {
  bookId: string;
  name: string;
  edition: number;
  course: string;
  ISBN: string | null;
  condition: string;
  priceCents: number;
  /** the book's share of the order's fee (largest remainder); absent on orders placed before it existed */
  feeCents?: number;
  sellerId: string;
  sellerFirstName: string;
}

/** Order statuses. 1 = placed at checkout (the books are at status 1); later moves belong to the dashboard. */
export const OrderStatus = { Placed: 1 } as const;

/** ORDER#<id> / ORDER, plus orderIndexes(...) attributes. Money in integer cents. */
export interface OrderRecord {
  type: 'order';
  id: string;
  buyerId: string;
  books: OrderLineRecord[];
  bookIds: string[];
  sellerIds: string[];
  subtotalCents: number;
  feeCents: number;
  totalCents: number;
  status: number;
  createdAt: string;
  /** books of this order whose purchase an admin cancelled (dashboard cancelPurchase); the lines stay */
  cancelledBookIds?: Set<string>;
  /**
   * one JSON entry per cancelled book, written in the cancel's own write so it survives the book's
   * relisting: `{"bookId","at","verifiedAt","reason"}` (lib/db/orders.ts `OrderCancellation`)
   */
  cancellations?: Set<string>;
}

/** IDEMPOTENCY#<userId>#<sha256(key)> / IDEMPOTENCY: the order a checkout's Idempotency-Key produced. */
export interface IdempotencyRecord {
  type: 'idempotency';
  userId: string;
  orderId: string;
  /** SHA-256 of the sorted book ids of the cart that was checked out */
  cartHash: string;
  createdAt: string;
  /** epoch seconds; DynamoDB TTL removes the record some time after */
  ttl: number;
}
