/**
 * POST /api/auth/deleteAccount. With the right password, and no purchase of theirs in progress (a
 * book at status 1 or 2, as seller or buyer: 409), the account is deleted:
 *
 *  1. at once, in one transaction: the profile and the address's uniqueness item go (every token
 *     fails its next call, login answers as for an unknown address, the address can sign up again
 *     as a new user) and a job item records the deletion;
 *  2. then in pages, each step idempotent and the position saved on the job item: listed and
 *     unlisted books are deleted for good (with their reports; the stream consumer drops their
 *     search entries and matches), books that were bought stay for their buyers with the owner
 *     shown as `deleted user` (also on the orders' lines), their conversations show them as
 *     `deleted user` to the other side (lib/db/conversations.ts), and then everything in the user's
 *     partition (requests, cart, matches, notifications, counters, marks, blocks) is deleted.
 *
 * The request runs step 2 within a time budget; whatever a crash or the budget leaves is finished
 * by the scheduled `resumeAccountDeletions` (functions/scheduled/finish-account-deletions.ts).
 * Orders stay as they are (the buyer is shown by id only).
 *
 * Once step 1 is done, the address the account had gets a last e-mail saying so (queued in the
 * outbox with the address captured here, as the profile is gone when it is sent).
 */

import { checkOwnPassword } from '#lib/accounts/password.ts';
import { OfferedPassword } from '#lib/accounts/schemas.ts';
import {
  BookWriteRefused,
  hasPurchaseInProgress,
  queryBooksOfOwner,
  removeBook,
  renameBookOwner,
} from '#lib/db/books.ts';
import { renameParticipantPage } from '#lib/db/conversations.ts';
import {
  deleteUserItemsPage,
  endAccountDeletion,
  getAccountDeletion,
  renameOrderSeller,
  saveDeletionProgress,
  startAccountDeletion,
  unfinishedAccountDeletions,
} from '#lib/db/deletions.ts';
import { type BookRecord, BookStatus } from '#lib/db/records.ts';
import { deleteReportsOfBook } from '#lib/db/reports.ts';
import { Conflict, Unauthorized } from '#lib/errors.ts';
import { accountDeletedMail } from '#lib/mail/account-notices.ts';
import { mailOp } from '#lib/outbox/queue.ts';
import * as z from '#lib/zod.ts';

export const DeleteAccountBody = z.strictObject({ password: OfferedPassword });
export const AccountDeleted = z
  .strictObject({ deleted: z.literal(true) })
  .check(z.meta({ id: 'AccountDeleted' }));

/** How a deleted party is shown on what stays (orders, bought books). */
export const DELETED_USER = 'deleted user';

/** Items handled per page (books, then partition items). */
export const DELETION_PAGE = 25;
/** How long the request itself works on the pages before leaving the rest to the scheduled run. */
const REQUEST_BUDGET_MS = 10_000;

export interface DeletionRun {
  /** asked before each page: true stops the run (the position is saved) */
  shouldStop?: () => boolean;
  pageSize?: number;
}

/** Deletes one book for good, or keeps a bought one with its owner shown as deleted. */
async function deleteOrKeepBook(userId: string, book: BookRecord | null): Promise<void> {
  for (let current = book, attempt = 0; current && attempt < 3; attempt++) {
    if (current.status !== BookStatus.Listed && current.status !== BookStatus.Unlisted) {
      await renameBookOwner(current.id, DELETED_USER);
      if (current.orderId) await renameOrderSeller(current.orderId, userId, DELETED_USER);
      return;
    }
    await deleteReportsOfBook(current.id, current.reportCount);
    try {
      await removeBook(current, userId);
      return;
    } catch (err) {
      if (!(err instanceof BookWriteRefused)) throw err;
      current = err.current; // bought or moved meanwhile (null: already gone)
    }
  }
}

/**
 * Carries a deletion on from where it stopped; 'done' when nothing of it is left (or there was
 * none), 'unfinished' when `shouldStop` ended the run first.
 */
export async function continueAccountDeletion(
  userId: string,
  run: DeletionRun = {},
): Promise<'done' | 'unfinished'> {
  const job = await getAccountDeletion(userId);
  if (!job) return 'done';
  const { shouldStop = () => false, pageSize = DELETION_PAGE } = run;
  let { phase, after } = job;
  while (phase === 'books') {
    if (shouldStop()) return 'unfinished';
    const all = [
      BookStatus.Listed,
      BookStatus.Bought,
      BookStatus.Verified,
      BookStatus.Paid,
      BookStatus.Unlisted,
    ];
    const page = await queryBooksOfOwner(userId, all, pageSize, after ?? undefined, 1);
    for (const book of page.items) await deleteOrKeepBook(userId, book);
    if (page.next) after = page.next;
    else [phase, after] = ['partition', null];
    await saveDeletionProgress(userId, phase, after);
  }
  // before the partition goes: its inbox entries say which conversations to rename in
  for (;;) {
    if (shouldStop()) return 'unfinished';
    if ((await renameParticipantPage(userId, DELETED_USER, pageSize)) === 0) break;
  }
  for (;;) {
    if (shouldStop()) return 'unfinished';
    if ((await deleteUserItemsPage(userId, pageSize)) === 0) break;
  }
  await endAccountDeletion(userId);
  return 'done';
}

export async function deleteAccount(
  principal: { userId: string; tokenVersion: number },
  password: string,
  run: DeletionRun = {},
  now = new Date(),
): Promise<z.infer<typeof AccountDeleted>> {
  const user = await checkOwnPassword(principal.userId, password, 'The password is wrong.', now);
  // the last owner gone, nobody could make or revoke admins: the operator steps an owner down first
  if (user.permissionType >= 2) {
    throw new Conflict(
      'An owner’s account cannot be deleted: the market would lose the person who manages its admins. Ask whoever runs Campus Books to make you an admin first (npm run promote-owner -- --revoke <your address>), then delete the account.',
      undefined,
      'OWNER_ACCOUNT',
    );
  }
  if (await hasPurchaseInProgress(user.id)) {
    throw new Conflict(
      'A purchase of yours is in progress (bought or verified, as seller or buyer); delete the account once it is delivered or cancelled.',
      undefined,
      'PURCHASE_IN_PROGRESS',
    );
  }
  // the last e-mail, to the address captured now, in the same transaction: a deletion never starts
  // without it
  const mail = mailOp(
    {
      id: `account.deleted.${user.id}`,
      recipientId: user.id,
      address: user.emailAddress,
      mail: accountDeletedMail(user.firstName, now),
    },
    now,
  );
  if (!(await startAccountDeletion(user, principal.tokenVersion, now.toISOString(), mail))) {
    throw new Unauthorized('The token is missing, invalid or expired.', 'TOKEN_INVALID');
  }
  const deadline = Date.now() + REQUEST_BUDGET_MS;
  await continueAccountDeletion(user.id, { shouldStop: () => Date.now() > deadline, ...run });
  return { deleted: true };
}

/** How long a deletion is left to its own request before a scheduled run takes it over. */
const TAKE_OVER_AFTER_MS = 5 * 60_000;

/**
 * The scheduled run: finishes deletions requested more than a few minutes ago that are still
 * unfinished (a crash, or the request's budget ran out), oldest first, while time is left.
 */
export async function resumeAccountDeletions(options: {
  timeLeftMs: () => number;
  reserveMs: number;
  now?: Date;
}): Promise<{ finished: number; stoppedEarly: boolean }> {
  const now = options.now ?? new Date();
  const before = new Date(now.getTime() - TAKE_OVER_AFTER_MS).toISOString();
  const shouldStop = () => options.timeLeftMs() < options.reserveMs;
  let finished = 0;
  for (const userId of await unfinishedAccountDeletions(before, 25)) {
    if ((await continueAccountDeletion(userId, { shouldStop })) === 'unfinished') {
      return { finished, stoppedEarly: true };
    }
    finished += 1;
  }
  return { finished, stoppedEarly: false };
}
