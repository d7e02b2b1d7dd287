/**
 * Who a reporter is, and whether their report counts towards hiding a book.
 *
 * A reporter is a person, not an account: the keyed hash (HMAC-SHA256, key derived from JWT_SECRET
 * with its own label, as the unsubscribe key) of the mailbox their address reaches
 * (lib/values/mailbox.ts). A deleted and re-created account, or a second plus-address, is the same
 * reporter. The hash is kept on the report item, which expires 90 days after it was filed, account
 * deletion or not; the address itself is never stored with a report.
 *
 * A report counts towards hiding only when its reporter is established (account at least 24 hours
 * old, or a purchase or sale on record) and has not lost their weight (a hidden book an admin
 * restored takes the weight of everyone whose report hid it for 30 days). Every report reaches the
 * admins' queue either way.
 */
import { createHmac } from 'node:crypto';
import { config, derivedKey } from '#lib/config.ts';
import { getUserStats } from '#lib/db/counters.ts';
import type { UserRecord } from '#lib/db/records.ts';
import { reporterWeightlessUntil } from '#lib/db/reports.ts';
import { mailboxOf } from '#lib/values/mailbox.ts';

export const ESTABLISHED_AFTER_MS = 24 * 3600_000;
export const REPORT_KEPT_DAYS = 90;
export const PENALTY_DAYS = 30;

const key = (): Buffer => derivedKey('campus-books reporter v1');

/** The reporter id of an account: 24 base64url characters, the same for every address of one mailbox. */
export function reporterIdOf(user: Pick<UserRecord, 'emailNormalised'>): string {
  const mailbox = mailboxOf(user.emailNormalised, config.GMAIL_STYLE_DOMAINS);
  return createHmac('sha256', key()).update(mailbox).digest().subarray(0, 18).toString('base64url');
}

/** Whether a report by `user` (reporter `reporterId`) counts towards hiding, at `now`. */
export async function reportCounts(
  user: Pick<UserRecord, 'id' | 'createdAt'>,
  reporterId: string,
  now: Date,
): Promise<boolean> {
  const [stats, weightlessUntil] = await Promise.all([
    getUserStats(user.id),
    reporterWeightlessUntil(reporterId),
  ]);
  if (weightlessUntil && weightlessUntil > now.toISOString()) return false;
  const established = Date.parse(user.createdAt) <= now.getTime() - ESTABLISHED_AFTER_MS;
  return established || stats.booksBought > 0 || stats.booksSold > 0;
}
