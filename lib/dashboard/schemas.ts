/**
 * The dashboard's API shapes: request inputs and answers. Users are built field by field, so no
 * password hash, token hash or token version can ever reach an answer.
 */

import { toUser, User } from '#lib/accounts/schemas.ts';
import { CampusParam, SINGLE_LINE } from '#lib/books/inputs.ts';
import { Book, BookStatusSchema } from '#lib/books/schemas.ts';
import { ALL_CAMPUSES } from '#lib/db/keys.ts';
import type { UserRecord } from '#lib/db/records.ts';
import { Handover } from '#lib/orders/handover.ts';
import { CursorParam } from '#lib/table/cursor.ts';
import { IdOf } from '#lib/values/ids.ts';
import { IntParam } from '#lib/values/params.ts';
import * as z from '#lib/zod.ts';

/** Path and query ids: opaque, bounded, no control characters. */
const Id = IdOf('a valid id');
const Cursor = z.optional(CursorParam);
const limit = (def: number, max: number) => z._default(IntParam(1, max), def);

// ----- users -----------------------------------------------------------------------------------

/**
 * A user as admins see it: the accounts area's `user` (never secrets) and whether the account is
 * active or suspended (a deleted account's record is gone, so it is never listed).
 */
export const AdminUser = z.extend(User, {
  status: z.enum(['active', 'suspended']),
  /** when suspended: why, as the admin wrote it */
  suspendReason: z.optional(z.string()),
});
export type AdminUser = z.output<typeof AdminUser>;
export const toAdminUser = (r: UserRecord & { suspended?: boolean; suspendReason?: string }): AdminUser => ({
  ...toUser(r),
  status: r.suspended === true ? 'suspended' : 'active',
  ...(r.suspended === true && r.suspendReason ? { suspendReason: r.suspendReason } : {}),
});

/** What an admin needs to reach a seller or buyer for the hand-over. */
export const Contact = z.strictObject({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  emailAddress: z.string(),
  campusMailbox: z.string(),
  paymentUsername: z.string(),
  /** suspended by an admin: cannot sign in, so cannot come to a hand-over (docs/trust.md) */
  suspended: z.boolean(),
});
export type Contact = z.output<typeof Contact>;

export const toContact = (r: UserRecord): Contact => ({
  id: r.id,
  firstName: r.firstName,
  lastName: r.lastName,
  emailAddress: r.emailAddress,
  campusMailbox: r.campusMailbox,
  paymentUsername: r.paymentUsername,
  suspended: r.suspended === true,
});

export const PermissionLevel = z.strictObject({
  permissionType: z.number().check(z.int(), z.gte(0), z.lte(2)),
});

export const UsersQuery = z.strictObject({ limit: limit(25, 100), cursor: Cursor });
export const UserList = z.array(AdminUser);

export const FindUsersQuery = z.strictObject({
  query: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  limit: limit(20, 50),
});

export const UserIdBody = z.strictObject({ userId: Id });

// ----- statistics ------------------------------------------------------------------------------

export const Statistics = z.strictObject({
  totalUsers: z.number().check(z.int(), z.gte(0)),
  totalBooks: z.number().check(z.int(), z.gte(0)),
  booksByStatus: z.strictObject({
    '0': z.number().check(z.int()),
    '1': z.number().check(z.int()),
    '2': z.number().check(z.int()),
    '3': z.number().check(z.int()),
    '5': z.number().check(z.int()),
  }),
  totalOrders: z.number().check(z.int(), z.gte(0)),
  grossSales: z.number(),
  feesEarned: z.number(),
  /** the campus the weekly figures are of (a domain), or `all` */
  campus: z.string(),
  /** the last `weeks` ISO weeks (Monday start, UTC), oldest first, the current week last */
  weekly: z.array(
    z.strictObject({
      /** the week's Monday, YYYY-MM-DD */
      week: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
      /** orders placed that week (holding a book of the campus) */
      orders: z.number().check(z.int(), z.gte(0)),
      /** dollars: the prices of the books bought that week, less the ones cancelled since */
      grossSales: z.number(),
      feesEarned: z.number(),
      /** books first listed that week */
      newListings: z.number().check(z.int(), z.gte(0)),
    }),
  ),
});
export type Statistics = z.output<typeof Statistics>;

/** The most weeks getStatistics answers at once (a year). */
export const MAX_STATS_WEEKS = 52;

/** getStatistics' query: how many weeks (default 12) and of which campus (default every campus). */
export const StatisticsQuery = z.strictObject({
  weeks: z._default(IntParam(1, MAX_STATS_WEEKS), 12),
  campus: z._default(CampusParam, ALL_CAMPUSES),
});

// ----- books and the hand-over -----------------------------------------------------------------

export const StatusParams = z.strictObject({
  status: z.pipe(IntParam(0, 9), BookStatusSchema),
});
export const PageQuery = z.strictObject({ limit: limit(25, 100), cursor: Cursor });

/** A book with its seller's and buyer's contact details (null when the user no longer exists). */
export const HandOverBook = z.strictObject({
  book: Book,
  owner: z.nullable(Contact),
  buyer: z.nullable(Contact),
  /** when it was checked out (the start of its hand-over: the queue item's age), and how many
   * whole days ago (null when unknown) */
  boughtAt: z.nullable(z.iso.datetime()),
  ageDays: z.nullable(z.number().check(z.int())),
  /** when the stuck-purchase job reminded buyer, seller and admins of it (docs/handover.md) */
  remindedAt: z.nullable(z.iso.datetime()),
  /** the hand-over of its seller's books in its order, agreed or proposed; null when none */
  handover: z.nullable(Handover),
  /** the buyer and seller's conversation (GET /api/dashboard/getConversation, audited); null
   * while the book has no buyer. The pair's id is computed, so it is given even before their
   * first message (getConversation then answers 404) */
  conversationId: z.nullable(z.string()),
});
export const HandOverBookList = z.array(HandOverBook);

export const BookIdBody = z.strictObject({ bookId: Id });
export const CancelBody = z.strictObject({
  bookId: Id,
  reason: z
    .string()
    .check(
      z.trim(),
      z.minLength(1),
      z.maxLength(500),
      z.regex(SINGLE_LINE, 'Control characters (including newlines) are not allowed.'),
    ),
});

/** A book after an admin moved it (with its buyer while it is sold). */
export const MovedBook = Book;

/** getHandovers: the agreed hand-overs of one day (default today, UTC), of every point or of one. */
export const HandoversQuery = z.strictObject({
  day: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date, YYYY-MM-DD.'))),
  pointId: z.optional(Id),
  limit: limit(50, 100),
  cursor: Cursor,
});
export const AdminHandover = z.strictObject({
  handover: Handover,
  /** the buyer and seller's conversation (GET /api/dashboard/getConversation, audited) */
  conversationId: z.string(),
  buyer: z.nullable(Contact),
  seller: z.nullable(Contact),
  books: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      status: z.nullable(BookStatusSchema),
      /** its purchase in this order was cancelled (the book left the order): nothing to hand over */
      cancelled: z.boolean(),
    }),
  ),
});
export type AdminHandover = z.output<typeof AdminHandover>;
export const AdminHandoverList = z.array(AdminHandover);

// ----- orders ----------------------------------------------------------------------------------

export const OrdersQuery = z.strictObject({
  status: z.optional(IntParam(0, 9)),
  limit: limit(20, 50),
  cursor: Cursor,
});

export const AdminOrder = z.strictObject({
  id: z.string(),
  status: z.number().check(z.int()),
  createdAt: z.iso.datetime(),
  subtotal: z.number(),
  fee: z.number(),
  total: z.number(),
  buyer: z.nullable(Contact),
  books: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      price: z.number(),
      /** the book's current status; null if it was deleted for good */
      status: z.nullable(BookStatusSchema),
      cancelled: z.boolean(),
      owner: z.nullable(Contact),
    }),
  ),
});
export type AdminOrder = z.output<typeof AdminOrder>;
export const AdminOrderList = z.array(AdminOrder);

// ----- audit log and unlisting -----------------------------------------------------------------

const Snapshot = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export const AUDIT_ACTIONS = [
  'confirmBook',
  'setBookPaid',
  'cancelPurchase',
  'makeAdmin',
  'revokeAdmin',
  'unlistBook',
  'reportBook',
  'resolveReport',
  'suspendUser',
  'reinstateUser',
  'readConversation',
  'reportMessage',
  'putHandoverPoint',
  'removeHandoverPoint',
  'remindStuckPurchase',
  'resolveMessageReport',
] as const;

const Day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Give the day as YYYY-MM-DD.'));

/** getAuditLog's query: a page, narrowed to who acted, what they did, and from and to which day (UTC, inclusive). */
export const AuditQuery = z
  .strictObject({
    limit: limit(25, 100),
    cursor: Cursor,
    actor: z.optional(
      z.string().check(z.regex(/^(system:[a-zA-Z-]{1,40}|[A-Za-z0-9_-]{1,64})$/, 'Not a valid actor.')),
    ),
    action: z.optional(z.enum(AUDIT_ACTIONS, 'Not an action the audit log records.')),
    from: z.optional(Day),
    to: z.optional(Day),
  })
  .check(
    z.refine((q) => !q.from || !q.to || q.from <= q.to, {
      message: 'The first day comes after the last one.',
      path: ['from'],
    }),
  );

export const AuditEntry = z.strictObject({
  id: z.string(),
  at: z.iso.datetime(),
  actor: z.string(),
  /** who acted, in words: their name, "deleted user", or the scheduled job */
  actorName: z.string(),
  /** the target in words (a user's name, a book's title), null when it has none or is gone */
  targetName: z.nullable(z.string()),
  action: z.enum(AUDIT_ACTIONS),
  target: z.strictObject({
    kind: z.enum(['book', 'user', 'conversation', 'handoverPoint']),
    id: z.string(),
  }),
  before: Snapshot,
  after: Snapshot,
  reason: z.nullable(z.string()),
});
export type AuditEntry = z.output<typeof AuditEntry>;
export const AuditLog = z.array(AuditEntry);

export const DeactivateBody = z.strictObject({
  olderThanDays: z.optional(z.number().check(z.int(), z.gte(1), z.lte(3650))),
  /** true: change nothing, answer how many books would be unlisted and the oldest few */
  dryRun: z.optional(z.boolean()),
});
/** What a real run did. */
export const UnlistedResult = z.strictObject({
  unlisted: z.number().check(z.int(), z.gte(0)),
  complete: z.boolean(),
});
/** What a dry run found: nothing was changed. */
export const UnlistPreview = z.strictObject({
  dryRun: z.literal(true),
  /** the listings dated before `cutoff` (a lower bound when `more` is true) */
  count: z.number().check(z.int(), z.gte(0)),
  /** true when there are more than `count` (the count stops at 20,000) */
  more: z.boolean(),
  cutoff: z.iso.datetime(),
  /** the oldest few that would be unlisted, oldest first */
  sample: z.array(Book),
});
export type UnlistPreview = z.output<typeof UnlistPreview>;
export const DeactivateResult = z.union([UnlistedResult, UnlistPreview]);
