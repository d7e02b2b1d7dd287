/**
 * The daily match digest, for users whose `matches` preference is `daily`. The notifier queues
 * each such match as a digest entry under the UTC day of the match (lib/notifications/notify.ts);
 * one scheduled run per day sends each user at most one e-mail listing that day's matches whose
 * book is still available. Each user's digest of a day is claimed (conditional put) before it is
 * sent, so a repeated or concurrent run sends nothing twice; a failed send gives the claim back
 * for the next run.
 *
 * The job runs every hour (functions/scheduled/functions.yml) and digests each of the last two UTC
 * days that is not done yet (`digestDays`): a run that runs out of time records the page it stopped
 * at, and the next hour's run carries on from there, so a slow day's remaining digests still go out
 * the same morning instead of never. A day is done once a run finished it with no failed send.
 */

import { getBooks } from '#lib/db/books.ts';
import {
  claimDigest,
  type DigestEntry,
  getDigestRun,
  listDigestEntries,
  putDigestRun,
  releaseDigest,
} from '#lib/db/digests.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { getUserContact } from '#lib/db/users.ts';
import { logger } from '#lib/logger.ts';
import { escapeHtml, sendMail } from '#lib/mail/send.ts';
import { countEvent } from '#lib/metrics.ts';
import { toDollars } from '#lib/values/money.ts';
import { withDefaults } from '#lib/values/preferences.ts';
import { unsubscribeUrl } from './unsubscribe.ts';

const PAGE = 100;

export interface DigestRun {
  day: string;
  /** users with entries that day */
  users: number;
  emailsSent: number;
  /** users whose digest was sent (claimed) before, or had nothing still available */
  skipped: number;
  failed: number;
  /** false when the run stopped for lack of time; the next run carries on */
  complete: boolean;
  /** where an incomplete run stopped: the page cursor the next run starts from */
  resumeAfter?: string;
}

/** The UTC day (yyyy-mm-dd) before `now`: the day a run at 00:05 UTC digests. */
export const previousUtcDay = (now: Date): string =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1))
    .toISOString()
    .slice(0, 10);

/** Whether the book can still be bought (hidden books are left out of the digest too). */
const available = (b: BookRecord | undefined): b is BookRecord =>
  b !== undefined && b.status === 0 && !(b as { hidden?: boolean }).hidden;

export function digestMail(firstName: string, day: string, books: BookRecord[]) {
  const lines = books.map(
    (b) =>
      `- ${b.name} (${b.course}${b.ISBN ? `, ISBN ${b.ISBN}` : ''}), $${toDollars(b.priceCents).toFixed(2)}`,
  );
  const intro =
    books.length === 1
      ? `One book you asked for was listed on ${day}:`
      : `${books.length} books you asked for were listed on ${day}:`;
  const greeting = firstName ? `Hello ${firstName},` : 'Hello,';
  return {
    subject: books.length === 1 ? 'Your daily matches: 1 book' : `Your daily matches: ${books.length} books`,
    text: [greeting, '', intro, ...lines, '', 'See your matches in the app.', '', 'Campus Books'].join('\n'),
    html: `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p><ul>${books
      .map((b) => `<li>${escapeHtml(`${b.name} (${b.course}), $${toDollars(b.priceCents).toFixed(2)}`)}</li>`)
      .join('')}</ul><p>See your matches in the app.</p><p>Campus Books</p>`,
  };
}

async function digestOne(userId: string, entries: DigestEntry[], day: string, now: Date) {
  const contact = await getUserContact(userId);
  if (!contact || withDefaults(contact.preferences).matches === 'off') return 'skipped' as const;
  const books = await getBooks([...new Set(entries.map((e) => e.bookId))]);
  const still = entries.map((e) => books.get(e.bookId)).filter(available);
  if (still.length === 0) return 'skipped' as const;
  if (!(await claimDigest(userId, day, now))) return 'skipped' as const;
  try {
    await sendMail({
      to: contact.emailAddress,
      ...digestMail(contact.firstName, day, [...new Map(still.map((b) => [b.id, b])).values()]),
      unsubscribeUrl: unsubscribeUrl(userId, 'matches'),
    });
    return 'sent' as const;
  } catch (err) {
    logger.error('digest e-mail failed; the next run retries it', { userId, day, error: err as Error });
    await releaseDigest(userId, day);
    return 'failed' as const;
  }
}

export async function sendDailyDigests(opts: {
  day: string;
  now?: Date;
  timeLeftMs?: () => number;
  reserveMs?: number;
  /** a page cursor an earlier, incomplete run stopped at */
  after?: string;
  /** digest entries read per Query (100) */
  pageSize?: number;
}): Promise<DigestRun> {
  const now = opts.now ?? new Date();
  const run: DigestRun = { day: opts.day, users: 0, emailsSent: 0, skipped: 0, failed: 0, complete: true };
  let after: string | undefined = opts.after;
  // the user whose entries are being gathered, and the cursor of the page their entries start on
  let current: { userId: string; entries: DigestEntry[]; from: string | undefined } | null = null;
  const finish = async (u: { userId: string; entries: DigestEntry[] }) => {
    run.users += 1;
    const outcome = await digestOne(u.userId, u.entries, opts.day, now);
    if (outcome === 'sent') run.emailsSent += 1;
    else if (outcome === 'failed') run.failed += 1;
    else run.skipped += 1;
  };
  for (;;) {
    if (opts.timeLeftMs && opts.timeLeftMs() < (opts.reserveMs ?? 0)) {
      run.complete = false;
      // carry on from the page the unfinished user's entries start on: nobody is left out, and the
      // users of that page already handled are skipped by their claims
      const resume = current ? current.from : after;
      if (resume) run.resumeAfter = resume;
      return run;
    }
    const pageStart = after;
    const page = await listDigestEntries(opts.day, opts.pageSize ?? PAGE, after);
    for (const e of page.items) {
      if (current && current.userId !== e.userId) {
        await finish(current);
        current = null;
      }
      current ??= { userId: e.userId, entries: [], from: pageStart };
      current.entries.push(e);
    }
    if (!page.next) break;
    after = page.next;
  }
  if (current) await finish(current);
  return run;
}

/** The UTC days an hourly run looks at: the day before yesterday (a late finish) and yesterday. */
export const digestDays = (now: Date): string[] => {
  const yesterday = previousUtcDay(now);
  return [previousUtcDay(new Date(`${yesterday}T00:00:00Z`)), yesterday];
};

/**
 * The hourly job: each of `digestDays` not done yet, carried on from where an earlier run stopped.
 * Two GetItems when there is nothing to do.
 */
export async function runDailyDigests(opts: {
  now?: Date;
  timeLeftMs?: () => number;
  reserveMs?: number;
  pageSize?: number;
}): Promise<DigestRun[]> {
  const now = opts.now ?? new Date();
  const runs: DigestRun[] = [];
  for (const day of digestDays(now)) {
    const state = await getDigestRun(day);
    if (state.done) continue;
    const run = await sendDailyDigests({ ...opts, day, now, ...(state.after ? { after: state.after } : {}) });
    runs.push(run);
    const done = run.complete && run.failed === 0;
    await putDigestRun(day, { done, ...(run.complete ? {} : { after: run.resumeAfter }) }, now);
    if (!run.complete) {
      countEvent('DigestRunsUnfinished');
      break;
    }
  }
  return runs;
}
