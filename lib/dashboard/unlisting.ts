/**
 * Unlisting stale books (0 -> 5): the owner's deactivateBooks and the daily scheduled job share
 * this. Old listings are read oldest first through gsi1 `BOOKS#S0` (ordered by listing date), a page
 * at a time; each page is one transaction of conditional book updates (still status 0, still older
 * than the cut-off), one audit entry per book and the counters. A book that changed meanwhile is
 * dropped from the page and the rest retried. Unlisted books leave the index partition, so a second
 * run finds nothing to do. Each owner then gets one e-mail listing their unlisted books.
 *
 * The run keeps a pace (PACE, 200 books a second) so the audit partition is never hot.
 *
 * Thousands of books: pages continue until the index has no more stale listings or the time left
 * (`timeLeftMs`, e.g. the Lambda context's getRemainingTimeInMillis) runs low; then `complete` is
 * false and the next run (or call) carries on from the oldest remaining listing.
 */
import { auditPutOp, newAuditRecord } from '#lib/db/audit.ts';
import { listingIndexMove, listStaleListings, updateBookOp } from '#lib/db/books.ts';
import { counterItems, statusCounterDeltas } from '#lib/db/counters.ts';
import { storedPreferences } from '#lib/db/preferences.ts';
import { type BookRecord, BookStatus } from '#lib/db/records.ts';
import { type Tagged, TransactionRefused, tag, tagAll, transactWrite } from '#lib/db/transact.ts';
import { getUsersById } from '#lib/db/users.ts';
import { logger } from '#lib/logger.ts';
import { escapeHtml, sendMail } from '#lib/mail/send.ts';
import { withDefaults } from '#lib/preferences/schemas.ts';
import { unsubscribeUrl } from '#lib/preferences/unsubscribe.ts';
import { DEFAULT_UNLIST_AFTER_DAYS, unlistCutoff } from './rules.ts';

export interface UnlistOptions {
  now: Date;
  /** who runs it: the owner's user id, or `system:<job>` */
  actor: string;
  olderThanDays?: number;
  /** books per page (and per transaction): at most 32 (3 items each + counters <= 100) */
  pageSize?: number;
  /** milliseconds left to work; the run stops starting pages below `reserveMs` */
  timeLeftMs?: () => number;
  reserveMs?: number;
  /** the pace (PACE by default); tests pass a clock and a sleep of their own */
  pace?: Pace;
}

/**
 * How fast a run unlists. Every unlisted book writes one audit entry, and the audit log is one
 * partition (lib/db/keys.ts AUDIT): at 200 books a second the job puts at most about 400 write units
 * a second there (entries are written in transactions, which cost double), well under a partition's
 * 1,000, leaving room for the dashboard's own actions.
 */
export interface Pace {
  booksPerSecond: number;
  clock: () => number;
  sleep: (ms: number) => Promise<void>;
}

export const PACE: Pace = {
  booksPerSecond: 200,
  clock: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface UnlistResult {
  unlisted: number;
  /** false when the run stopped for lack of time with stale listings left */
  complete: boolean;
}

export async function unlistStaleBooks(options: UnlistOptions): Promise<UnlistResult> {
  const cutoff = unlistCutoff(options.now, options.olderThanDays ?? DEFAULT_UNLIST_AFTER_DAYS);
  const pageSize = Math.min(options.pageSize ?? 25, 32);
  const timeLeft = options.timeLeftMs ?? (() => Number.POSITIVE_INFINITY);
  const reserve = options.reserveMs ?? 3000;
  const at = options.now.toISOString();
  const byOwner = new Map<string, BookRecord[]>();
  let startKey: string | undefined;
  let unlisted = 0;
  let complete = false;
  const pace = options.pace ?? PACE;
  const started = pace.clock();
  while (timeLeft() > reserve) {
    // Not ahead of the pace: `unlisted` books may have taken unlisted / booksPerSecond seconds.
    const due = started + (unlisted / pace.booksPerSecond) * 1000 - pace.clock();
    if (due > 0) await pace.sleep(due);
    const page = await listStaleListings(cutoff, pageSize, startKey);
    const done = await unlistPage(page.items, cutoff, at, options.actor);
    for (const b of done) byOwner.set(b.ownerId, [...(byOwner.get(b.ownerId) ?? []), b]);
    unlisted += done.length;
    if (!page.lastKey) {
      complete = true;
      break;
    }
    startKey = page.lastKey;
  }
  await tellOwners(byOwner);
  return { unlisted, complete };
}

/** Unlists the given books that are still status 0 and older than the cut-off; returns those it unlisted. */
async function unlistPage(
  candidates: BookRecord[],
  cutoff: string,
  at: string,
  actor: string,
): Promise<BookRecord[]> {
  let books = candidates.filter((b) => b.status === BookStatus.Listed && b.date < cutoff);
  while (books.length > 0) {
    const outcome = await transactWrite(unlistOps(books, cutoff, at, actor));
    if (outcome.ok) return books;
    // Drop the books whose condition failed and try the rest again.
    const failed = new Set(
      outcome.refused.flatMap((r) =>
        r.tag.startsWith('book:') && r.code === 'ConditionalCheckFailed' ? [r.tag.slice('book:'.length)] : [],
      ),
    );
    if (failed.size === 0) throw new TransactionRefused(outcome.refused);
    books = books.filter((b) => !failed.has(b.id));
  }
  return [];
}

function unlistOps(books: BookRecord[], cutoff: string, at: string, actor: string): Tagged[] {
  const ops: Tagged[] = books.map((b) =>
    tag(
      `book:${b.id}`,
      updateBookOp(
        b.id,
        { from: BookStatus.Listed, dateBefore: cutoff },
        {
          status: BookStatus.Unlisted,
          statusChangedAt: at,
          ...listingIndexMove({ ...b, status: BookStatus.Unlisted }).set,
        },
        listingIndexMove({ ...b, status: BookStatus.Unlisted }).remove,
      ),
    ),
  );
  for (const b of books) {
    ops.push(
      tag(
        'audit',
        auditPutOp(
          newAuditRecord({
            at,
            actor,
            action: 'unlistBook',
            target: { kind: 'book', id: b.id },
            before: { status: BookStatus.Listed, date: b.date },
            after: { status: BookStatus.Unlisted },
            reason: `listed before ${cutoff}`,
          }),
        ),
      ),
    );
  }
  const counters = counterItems({
    global: statusCounterDeltas(BookStatus.Listed, BookStatus.Unlisted, books.length),
    users: books.map((b) => ({ userId: b.ownerId, deltas: { activeListings: -1 } })),
  });
  ops.push(...tagAll('stats', counters));
  return ops;
}

/** One e-mail per owner listing their unlisted books. A failed send is logged; the books stay unlisted. */
async function tellOwners(byOwner: Map<string, BookRecord[]>): Promise<void> {
  if (byOwner.size === 0) return;
  const owners = await getUsersById([...byOwner.keys()]);
  for (const [ownerId, books] of byOwner) {
    const owner = owners.get(ownerId);
    if (!owner) continue;
    // a listing notice is not essential: the owner may have turned these e-mails off
    if (!withDefaults(storedPreferences(owner as unknown as Record<string, unknown>)).listings) continue;
    const lines = books.map(
      (b) => `- ${b.name} (edition ${b.edition}, ${b.course}), listed ${b.date.slice(0, 10)}`,
    );
    try {
      await sendMail({
        to: owner.emailAddress,
        subject:
          books.length === 1
            ? 'One of your books was unlisted'
            : `${books.length} of your books were unlisted`,
        text: [
          `Hello ${owner.firstName},`,
          '',
          'These listings were old, so we unlisted them:',
          ...lines,
          '',
          'You can list any of them again from "My posts" (reactivate).',
        ].join('\n'),
        unsubscribeUrl: unsubscribeUrl(ownerId, 'listings'),
        html: `<p>Hello ${escapeHtml(owner.firstName)},</p><p>These listings were old, so we unlisted them:</p><ul>${books
          .map(
            (b) =>
              `<li>${escapeHtml(`${b.name} (edition ${b.edition}, ${b.course}), listed ${b.date.slice(0, 10)}`)}</li>`,
          )
          .join('')}</ul><p>You can list any of them again from "My posts" (reactivate).</p>`,
      });
    } catch (err) {
      logger.error('unlisting e-mail failed', { ownerId, books: books.length, error: err as Error });
    }
  }
}
