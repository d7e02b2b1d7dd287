/**
 * Unlisting stale books (0 -> 5): the owner's deactivateBooks and the daily scheduled job share
 * this. Old listings are read oldest first through gsi1 `BOOKS#S0` (ordered by listing date), a page
 * at a time; each page is one transaction (lib/db/books.ts `unlistStale`) of conditional book
 * updates (still status 0, still older than the cut-off), one audit entry per book, the counters
 * and, per owner, the run's notice in the e-mail outbox (lib/db/outbox.ts). A book that changed
 * meanwhile is dropped from the page and the rest retried. Unlisted books leave the index
 * partition, so a second run finds nothing to do.
 *
 * Each owner gets one e-mail per run listing their unlisted books: the notice is written with the
 * books it names (so no timeout or crash after a page can lose it) and marked ready when the run
 * ends; the outbox consumer sends it. A run that dies before the end leaves its notices open, and
 * the outbox sweeper sends them once OPEN_GRACE_MS has passed.
 *
 * The run keeps a pace (PACE, 200 books a second) so no audit partition is ever hot.
 *
 * Thousands of books: pages continue until the index has no more stale listings or the time left
 * (`timeLeftMs`, e.g. the Lambda context's getRemainingTimeInMillis) runs low; then `complete` is
 * false and the next run (or call) carries on from the oldest remaining listing.
 */
import { ulid } from 'ulid';
import { toApiBook } from '#lib/books/schemas.ts';
import { countStaleListings, listStaleListings, type UnlistRun, unlistStale } from '#lib/db/books.ts';
import { markReady, type OutboxRecord } from '#lib/db/outbox.ts';
import { storedPreferences } from '#lib/db/preferences.ts';
import type { UserRecord } from '#lib/db/records.ts';
import { escapeHtml, type Mail } from '#lib/mail/send.ts';
import { OPEN_GRACE_MS, READY_GRACE_MS } from '#lib/outbox/policy.ts';
import { unsubscribeUrl } from '#lib/preferences/unsubscribe.ts';
import { withDefaults } from '#lib/values/preferences.ts';
import { DEFAULT_UNLIST_AFTER_DAYS, unlistCutoff } from './rules.ts';
import type { UnlistPreview } from './schemas.ts';

export interface UnlistOptions {
  now: Date;
  /** who runs it: the owner's user id, or `system:<job>` */
  actor: string;
  olderThanDays?: number;
  /** books per page (and per transaction): at most 24 (4 items each: book, audit, owner counter, owner notice; + counters <= 100) */
  pageSize?: number;
  /** milliseconds left to work; the run stops starting pages below `reserveMs` */
  timeLeftMs?: () => number;
  reserveMs?: number;
  /** the pace (PACE by default); tests pass a clock and a sleep of their own */
  pace?: Pace;
}

/**
 * How fast a run unlists. Every unlisted book writes one audit entry, and the audit log is 4
 * partitions (lib/db/keys.ts AUDIT_PARTITIONS): at 200 books a second the job puts about 400 write
 * units a second there (entries are written in transactions, which cost double), about 100 per
 * partition against a partition's 1,000, leaving room for the dashboard's own actions.
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
  const pageSize = Math.min(options.pageSize ?? 24, 24);
  const timeLeft = options.timeLeftMs ?? (() => Number.POSITIVE_INFINITY);
  const reserve = options.reserveMs ?? 3000;
  const at = options.now.toISOString();
  const runId = ulid(options.now.getTime());
  const run: UnlistRun = {
    actor: options.actor,
    at,
    noticeDue: new Date(options.now.getTime() + OPEN_GRACE_MS).toISOString(),
    noticeId: (ownerId) => noticeId(runId, ownerId),
  };
  const owners = new Set<string>();
  let after: string | undefined;
  let unlisted = 0;
  let complete = false;
  const pace = options.pace ?? PACE;
  const started = pace.clock();
  while (timeLeft() > reserve) {
    // Not ahead of the pace: `unlisted` books may have taken unlisted / booksPerSecond seconds.
    const due = started + (unlisted / pace.booksPerSecond) * 1000 - pace.clock();
    if (due > 0) await pace.sleep(due);
    const page = await listStaleListings(cutoff, pageSize, after);
    const done = await unlistStale(page.items, cutoff, run);
    for (const b of done) owners.add(b.ownerId);
    unlisted += done.length;
    if (!page.next) {
      complete = true;
      break;
    }
    after = page.next;
  }
  // The notices are complete: the outbox consumer sends them.
  const ready = new Date(options.now.getTime() + READY_GRACE_MS).toISOString();
  for (const ownerId of owners) await markReady(noticeId(runId, ownerId), ready);
  return { unlisted, complete };
}

/** Books shown in a dry run's sample. */
export const PREVIEW_SAMPLE = 5;

/**
 * The dry run of `unlistStaleBooks`: how many listings are older than the cut-off (one bounded COUNT
 * Query per shard of the keys-only index, lib/db/books.ts `countStaleListings`) and the oldest few
 * (one merged page of the listing). Reads only: nothing is changed, audited or e-mailed.
 */
export async function previewUnlisting(now: Date, olderThanDays?: number): Promise<UnlistPreview> {
  const cutoff = unlistCutoff(now, olderThanDays ?? DEFAULT_UNLIST_AFTER_DAYS);
  const [counted, page] = await Promise.all([
    countStaleListings(cutoff),
    listStaleListings(cutoff, PREVIEW_SAMPLE, undefined),
  ]);
  const sample = page.items.slice(0, PREVIEW_SAMPLE).map((b) => toApiBook(b));
  // the index is eventually consistent and the two reads run at once: never show fewer than the sample
  return { dryRun: true, count: Math.max(counted.count, sample.length), more: counted.more, cutoff, sample };
}

const noticeId = (runId: string, ownerId: string): string => `unlisted.${runId}.${ownerId}`;

/**
 * The e-mail of one run's notice (the outbox's renderer for kind 'unlisted'), or null when the owner
 * turned listing e-mails off. Pure.
 */
export function unlistedNotice(notice: OutboxRecord, owner: UserRecord): Mail | null {
  // a listing notice is not essential: the owner may have turned these e-mails off
  if (!withDefaults(storedPreferences(owner as unknown as Record<string, unknown>)).listings) return null;
  const books = notice.books ?? [];
  const line = (b: (typeof books)[number]) =>
    `${b.name} (edition ${b.edition}, ${b.course}), listed ${b.date.slice(0, 10)}`;
  return {
    to: owner.emailAddress,
    subject:
      books.length === 1 ? 'One of your books was unlisted' : `${books.length} of your books were unlisted`,
    text: [
      `Hello ${owner.firstName},`,
      '',
      'These listings were old, so we unlisted them:',
      ...books.map((b) => `- ${line(b)}`),
      '',
      'You can list any of them again from "My posts" (reactivate).',
    ].join('\n'),
    unsubscribeUrl: unsubscribeUrl(owner.id, 'listings'),
    html: `<p>Hello ${escapeHtml(owner.firstName)},</p><p>These listings were old, so we unlisted them:</p><ul>${books
      .map((b) => `<li>${escapeHtml(line(b))}</li>`)
      .join('')}</ul><p>You can list any of them again from "My posts" (reactivate).</p>`,
  };
}
