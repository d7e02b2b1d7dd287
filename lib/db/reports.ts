/**
 * Reports repository: a person's report of a book (BOOK#<id> / REPORT#<reporterId>), the book's
 * `reportCount` (every report: the queue's order), `weightedCount` (the reports that count towards
 * hiding) and `hidden` flag, the moderation queue (REPORTS / <inverted count>#<bookId>) and the
 * reporters' penalties (REPORTER#<reporterId>). A new report is one transaction: the report put
 * only if absent, the book's counts moved from the values read (optimistic), the queue item moved,
 * the audit entry.
 */

import { batchDelete, deleteQueried } from '#lib/table/batch.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { QueryCommand, type TransactWriteCommandInput } from '#lib/table/commands.ts';
import { getItem } from '#lib/table/items.ts';
import { type Listing, type Page, queryPage } from '#lib/table/page.ts';
import { putOp, refusalOf, tag, tagAll, transactWrite } from '#lib/table/transact.ts';
import { expiresAfter } from '#lib/values/expiry.ts';
import * as z from '#lib/zod.ts';
import { type AuditRecord, auditPutOp } from './audit.ts';
import { bookKey, REPORT_SK_PREFIX, REPORTS_PK, reporterKey, reportKey, reportQueueKey } from './keys.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export const REPORT_REASONS = ['spam', 'prohibited', 'wrong-info', 'offensive', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** BOOK#<bookId> / REPORT#<reporterId> */
export interface ReportRecord {
  type: 'report';
  bookId: string;
  /** the account that filed it (shown to admins) */
  userId: string;
  /** the person: the keyed hash of the account's mailbox (lib/moderation/reporters.ts) */
  reporterId: string;
  /** whether it counted towards hiding the book */
  counted: boolean;
  reason: ReportReason;
  details: string | null;
  at: string;
  /** epoch seconds: the report, and with it the reporter's hash, goes 90 days after it was filed */
  ttl: number;
}

/** REPORTER#<reporterId> / REPORTER: a person whose reports do not count until `weightlessUntil`. */
export interface ReporterRecord {
  type: 'reporter';
  weightlessUntil: string;
  ttl: number;
}

/** REPORTS / <inverted count>#<bookId> */
export interface ReportQueueRecord {
  type: 'reportQueue';
  bookId: string;
  count: number;
  lastReportAt: string;
}

/** The book's counts as read: every report, and those that count towards hiding. */
export interface SeenCounts {
  reports: number;
  weighted: number;
}

/**
 * Files a report in one transaction with the book's counts (and, when a counted report reaches
 * `hideAt`, its hiding) and the audit entry, given the counts as read: 'filed', 'already' when this
 * person had reported the book, 'moved' when the count or the book's status changed meanwhile
 * (read again).
 */
export async function fileReport(
  report: ReportRecord,
  seen: SeenCounts,
  hideAt: number,
  audit: AuditRecord,
): Promise<'filed' | 'already' | 'moved'> {
  const [first, ...rest] = newReportOps(report, seen, hideAt, audit);
  const outcome = await transactWrite([...(first ? [tag('report', first)] : []), ...tagAll('book', rest)]);
  if (outcome.ok) return 'filed';
  return refusalOf(outcome, 'report')?.code === 'ConditionalCheckFailed' ? 'already' : 'moved';
}

/** Whether a report filed over these counts hides the book. */
export const hidesBook = (report: Pick<ReportRecord, 'counted'>, seen: SeenCounts, hideAt: number): boolean =>
  report.counted && seen.weighted + 1 >= hideAt;

/**
 * The operations of a new report, given the book's counts as read. `weightedCount` moves with
 * `reportCount`, whose value read conditions the write, so it is as fresh as the count.
 */
export function newReportOps(
  report: ReportRecord,
  counts: SeenCounts,
  hideAt: number,
  audit: AuditRecord,
): TransactItem[] {
  const seen = counts.reports;
  const count = seen + 1;
  const hide = hidesBook(report, counts, hideAt);
  const ops: TransactItem[] = [
    {
      Put: {
        TableName: TABLE,
        Item: { ...reportKey(report.bookId, report.reporterId), ...report },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Update: {
        TableName: TABLE,
        Key: bookKey(report.bookId),
        UpdateExpression: `SET reportCount = :count, weightedCount = :weighted${hide ? ', #hidden = :true' : ''}`,
        ConditionExpression:
          'attribute_exists(pk) AND #status = :listed AND ' +
          (seen === 0 ? '(attribute_not_exists(reportCount) OR reportCount = :zero)' : 'reportCount = :seen'),
        ExpressionAttributeNames: {
          '#status': 'status',
          ...(hide ? { '#hidden': 'hidden' } : {}),
        },
        ExpressionAttributeValues: {
          ':count': count,
          ':weighted': counts.weighted + (report.counted ? 1 : 0),
          ':listed': 0,
          ...(seen === 0 ? { ':zero': 0 } : { ':seen': seen }),
          ...(hide ? { ':true': true } : {}),
        },
      },
    },
    {
      Put: {
        TableName: TABLE,
        Item: {
          ...reportQueueKey(count, report.bookId),
          type: 'reportQueue',
          bookId: report.bookId,
          count,
          lastReportAt: report.at,
        } satisfies ReportQueueRecord & Record<string, unknown>,
      },
    },
    auditPutOp(audit),
  ];
  if (seen > 0) ops.push({ Delete: { TableName: TABLE, Key: reportQueueKey(seen, report.bookId) } });
  return ops;
}

/**
 * The operations that close a book's reports (resolveReport): the book (still listed, with the
 * count read) gets `set`, its count back to 0 and `hidden` removed; the queue item is deleted. The
 * report items stay, so the same users reporting again change nothing.
 */
export function clearReportsOps(
  bookId: string,
  seen: number,
  set: Record<string, unknown>,
  remove: string[] = [],
): TransactItem[] {
  const names: Record<string, string> = { '#status': 'status', '#hidden': 'hidden' };
  const values: Record<string, unknown> = { ':listed': 0, ':seen': seen, ':zero': 0 };
  const sets = Object.entries(set).map(([name, value], i) => {
    names[`#s${i}`] = name;
    values[`:s${i}`] = value;
    return `#s${i} = :s${i}`;
  });
  return [
    {
      Update: {
        TableName: TABLE,
        Key: bookKey(bookId),
        UpdateExpression: `SET ${['reportCount = :zero', 'weightedCount = :zero', ...sets].join(', ')} REMOVE ${['#hidden', ...remove].join(', ')}`,
        ConditionExpression: 'attribute_exists(pk) AND #status = :listed AND reportCount = :seen',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    { Delete: { TableName: TABLE, Key: reportQueueKey(seen, bookId) } },
  ];
}

/** The reports of `bookId` (up to `limit`), as ops see them. */
export async function reportsOfBook(bookId: string, limit: number): Promise<ReportRecord[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': bookKey(bookId).pk, ':p': REPORT_SK_PREFIX },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((i) => {
    const { pk: _pk, sk: _sk, ...rest } = i;
    return rest as ReportRecord;
  });
}

/** The moderation queue as a listing: positions are its sort keys. */
const QUEUE: Listing = {
  scope: 'dashboard:reports',
  position: z.string().check(z.regex(/^\d{6}#[0-9A-Za-z_-]{1,64}$/)),
  sortKey: 'sk',
  startKey: (sk) => ({ pk: REPORTS_PK, sk }),
};

/** The moderation queue, most reported first, a page at a time. */
export async function listReportQueue(
  limit: number,
  cursor: string | undefined,
): Promise<Page<ReportQueueRecord>> {
  const query = { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': REPORTS_PK } };
  return queryPage(QUEUE, query, limit, cursor, (i) => i as ReportQueueRecord);
}

/** Deletes a book's reports and its queue item (the book is being deleted for good). Idempotent. */
export async function deleteReportsOfBook(bookId: string, count: number | undefined): Promise<void> {
  if (count) await batchDelete([reportQueueKey(count, bookId)]);
  await deleteQueried({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': bookKey(bookId).pk, ':prefix': REPORT_SK_PREFIX },
  });
}

/** The operation that takes a reporter's weight away until `until` (a restore's penalty). */
export function reporterPenaltyOp(reporterId: string, until: Date): TransactItem {
  return putOp({
    ...reporterKey(reporterId),
    type: 'reporter',
    weightlessUntil: until.toISOString(),
    ttl: expiresAfter(until, 86_400),
  } satisfies ReporterRecord & Record<string, unknown>);
}

/** Until when a reporter's reports do not count (ISO), or null when they do. */
export async function reporterWeightlessUntil(reporterId: string): Promise<string | null> {
  return (await getItem<ReporterRecord>(reporterKey(reporterId)))?.weightlessUntil ?? null;
}
