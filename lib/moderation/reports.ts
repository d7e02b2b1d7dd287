/**
 * Reports and moderation. Any user may report a listed book of someone else, once per person (a
 * second report by the same person, from any of their accounts or plus-addresses, changes
 * nothing; lib/moderation/reporters.ts), at most REPORTS_PER_DAY a day per account. At
 * REPORTS_TO_HIDE distinct people whose reports count (established and not penalised) the book is
 * hidden until an admin resolves it: it leaves listings, search and matches (the stream processors
 * and the readers treat a hidden book as not listed), nobody can add it to a cart or check it out
 * (409), and carts show it unavailable. resolveReport dismisses (back to normal), unlists (0 -> 5,
 * the owner told why) or restores a hidden book (back to normal, and the people whose reports hid
 * it lose their weight for 30 days). Every report and resolution is in the audit log.
 */

import { BookId } from '#lib/cart/schemas.ts';
import { newAuditRecord } from '#lib/db/audit.ts';
import { getBook, resolveBookReports } from '#lib/db/books.ts';
import type { BookRecord } from '#lib/db/records.ts';
import {
  fileReport,
  listReportQueue,
  REPORT_REASONS,
  type ReportRecord,
  reporterPenaltyOp,
  reportsOfBook,
} from '#lib/db/reports.ts';
import { addToWindowIfBelow } from '#lib/db/throttle.ts';
import { getUser } from '#lib/db/users.ts';
import { Busy, Conflict, NotFound, TooManyRequests, Unauthorized } from '#lib/errors.ts';
import { moderationUnlistContent } from '#lib/notifications/messages.ts';
import { notify } from '#lib/notifications/notify.ts';
import { TransactionRefused } from '#lib/table/transact.ts';
import { expiresAfter } from '#lib/values/expiry.ts';
import { toDollars } from '#lib/values/money.ts';
import * as z from '#lib/zod.ts';
import { PENALTY_DAYS, REPORT_KEPT_DAYS, reportCounts, reporterIdOf } from './reporters.ts';

export const REPORTS_TO_HIDE = 3;
export const REPORTS_PER_DAY = 10;
const DAY_S = 86_400;
/** Penalties written with a restore (one transaction holds at most 100 operations). */
const MAX_PENALTIES = 50;
const MAX_ATTEMPTS = 5;

/** Whether a book is hidden by reports (shown to nobody but its owner and admins). */
export const isHidden = (book: Pick<BookRecord, 'hidden'> | null | undefined): boolean =>
  book?.hidden === true;

export const ReportBookBody = z.strictObject({
  bookId: BookId,
  reason: z.enum(REPORT_REASONS),
  details: z.optional(z.string().check(z.trim(), z.maxLength(1000))),
});
export type ReportBookBody = z.infer<typeof ReportBookBody>;

export const ReportAnswer = z
  .strictObject({ bookId: z.string(), reported: z.literal(true) })
  .check(z.meta({ examples: [{ bookId: '01JBOOK0000000000000000000', reported: true }] }));

export const ResolveReportBody = z.strictObject({
  bookId: BookId,
  action: z.enum(['dismiss', 'unlist', 'restore']),
  reason: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(500))),
});

export const ReportEntry = z.strictObject({
  userId: z.string(),
  reason: z.enum(REPORT_REASONS),
  details: z.nullable(z.string()),
  at: z.iso.datetime(),
  /** whether it counted towards hiding (a new or penalised reporter's does not) */
  counted: z.boolean(),
});
export const ReportedBook = z
  .strictObject({
    bookId: z.string(),
    count: z.number().check(z.int()),
    hidden: z.boolean(),
    book: z.nullable(
      z.strictObject({
        name: z.string(),
        course: z.string(),
        ownerId: z.string(),
        status: z.number().check(z.int()),
        price: z.number(),
      }),
    ),
    reports: z.array(ReportEntry),
  })
  .check(z.meta({ id: 'ReportedBook' }));
export const ReportedBooks = z.array(ReportedBook);

export const ResolveAnswer = z.strictObject({
  bookId: z.string(),
  action: z.enum(['dismiss', 'unlist', 'restore']),
  status: z.number().check(z.int()),
});

/** Takes one of the account's REPORTS_PER_DAY reports of the UTC day, or 429 with Retry-After. */
async function takeDailyReport(userId: string, now: Date): Promise<void> {
  const start = Math.floor(now.getTime() / 1000 / DAY_S) * DAY_S;
  const window = { start, end: start + DAY_S };
  if ((await addToWindowIfBelow('reportBook', userId, window, REPORTS_PER_DAY)) === null) {
    throw new TooManyRequests(
      window.end - now.getTime() / 1000,
      'You have sent many reports today. Try again tomorrow.',
    );
  }
}

/** POST /api/books/reportBook */
export async function reportBook(userId: string, input: ReportBookBody, now = new Date()) {
  const user = await getUser(userId);
  if (!user) throw new Unauthorized();
  await takeDailyReport(userId, now);
  const reporterId = reporterIdOf(user);
  const counted = await reportCounts(user, reporterId, now);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const book = await getBook(input.bookId);
    if (book?.status !== 0) {
      throw new NotFound('No such book.');
    }
    if (book.ownerId === userId) {
      throw new Conflict(
        'You cannot report your own book.',
        [{ bookId: book.id, message: 'Your own book.' }],
        'OWN_BOOK',
      );
    }
    const at = now.toISOString();
    const seen = book.reportCount ?? 0;
    const weighted = book.weightedCount ?? 0;
    const report: ReportRecord = {
      type: 'report',
      bookId: book.id,
      userId,
      reporterId,
      counted,
      reason: input.reason,
      details: input.details ?? null,
      at,
      ttl: expiresAfter(now, REPORT_KEPT_DAYS * DAY_S),
    };
    const hides = counted && weighted + 1 >= REPORTS_TO_HIDE;
    const audit = newAuditRecord({
      at,
      actor: userId,
      action: 'reportBook',
      target: { kind: 'book', id: book.id },
      before: { reportCount: seen, hidden: isHidden(book) },
      after: { reportCount: seen + 1, counted, hidden: isHidden(book) || hides },
      reason: input.reason,
    });
    // 'already': the person had reported it already, nothing changes
    if ((await fileReport(report, { reports: seen, weighted }, REPORTS_TO_HIDE, audit)) !== 'moved') {
      return { bookId: book.id, reported: true as const };
    }
    // the count moved (another report) or the book left status 0: read again
  }
  throw new Busy();
}

/** GET /api/dashboard/getReports: reported books, most reported first, each with its reports. */
export async function getReports(limit: number, cursor: string | undefined) {
  const page = await listReportQueue(limit, cursor);
  const items = await Promise.all(
    page.items.map(async (q) => {
      const [book, reports] = await Promise.all([getBook(q.bookId), reportsOfBook(q.bookId, 50)]);
      return {
        bookId: q.bookId,
        count: q.count,
        hidden: isHidden(book),
        book: book
          ? {
              name: book.name,
              course: book.course,
              ownerId: book.ownerId,
              status: book.status,
              price: toDollars(book.priceCents),
            }
          : null,
        reports: reports.map((r) => ({
          userId: r.userId,
          reason: r.reason,
          details: r.details ?? null,
          at: r.at,
          counted: r.counted ?? true,
        })),
      };
    }),
  );
  return { items, next: page.next };
}

/**
 * POST /api/dashboard/resolveReport: dismiss (back to normal), unlist (0 -> 5, owner told why), or
 * restore a hidden book (back to normal in one action; the people whose counted reports hid it
 * lose their weight for PENALTY_DAYS, in the same transaction).
 */
export async function resolveReport(
  actorId: string,
  input: z.infer<typeof ResolveReportBody>,
  now = new Date(),
) {
  const book = await getBook(input.bookId);
  if (!book) throw new NotFound('No such book.');
  const seen = book.reportCount ?? 0;
  if (seen === 0 || book.status !== 0) {
    throw new Conflict('This book has no open reports.', undefined, 'NO_OPEN_REPORTS');
  }
  if (input.action === 'restore' && !isHidden(book)) {
    throw new Conflict('This book is not hidden; dismiss its reports instead.', undefined, 'NOT_HIDDEN');
  }
  const penalties =
    input.action === 'restore'
      ? (await reportsOfBook(book.id, 90))
          .filter((r) => r.counted)
          .slice(0, MAX_PENALTIES)
          .map((r) => reporterPenaltyOp(r.reporterId, new Date(now.getTime() + PENALTY_DAYS * DAY_S * 1000)))
      : [];
  const at = now.toISOString();
  const reason = input.reason ?? (input.action === 'unlist' ? 'it breaks the marketplace rules' : null);
  const to = input.action === 'unlist' ? 5 : 0;
  const audit = newAuditRecord({
    at,
    actor: actorId,
    action: 'resolveReport',
    target: { kind: 'book', id: book.id },
    before: { status: book.status, reportCount: seen, hidden: isHidden(book) },
    after: { status: to, reportCount: 0, hidden: false, action: input.action },
    reason,
  });
  try {
    await resolveBookReports(book, seen, to === 5, audit, penalties);
  } catch (err) {
    if (err instanceof TransactionRefused) {
      throw new Conflict('The book changed meanwhile; read the reports again.', undefined, 'NO_OPEN_REPORTS');
    }
    throw err;
  }
  if (to === 5) {
    const content = moderationUnlistContent(book, reason ?? '');
    await notify({
      userId: book.ownerId,
      cause: `moderation#${audit.id}`,
      kind: 'unlisted',
      bookId: book.id,
      message: content.message,
      email: content.email,
      category: 'listings',
    });
  }
  return { bookId: book.id, action: input.action, status: to };
}
