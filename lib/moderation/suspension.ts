/**
 * suspendUser / reinstateUser (admins; an admin can be suspended only by an owner, an owner never).
 * A suspended user's live tokens stop at once (token version bumped), login answers exactly as for a
 * wrong password, and their listed books are unlisted (0 -> 5 with the counters, one audited move
 * each, a page at a time). Calling suspendUser again on a suspended user finishes the unlisting
 * left by a run that stopped halfway. Nothing else of theirs is touched; reinstating relists nothing.
 * The user is told by e-mail (essential, through the outbox, in the change's own transaction, so a
 * change is never without its e-mail) when suspended, once (the call that
 * finishes an unlisting sends nothing, and of two calls at once only the one whose conditional
 * write wins suspends, audits and tells), and when reinstated (likewise once).
 */

import { newAuditRecord } from '#lib/db/audit.ts';
import { booksOfOwner, unlistBookOfSuspendedOwner } from '#lib/db/books.ts';
import type { UserRecord } from '#lib/db/records.ts';
import { reinstateUserRecord, suspendUserRecord } from '#lib/db/suspensions.ts';
import { getUser } from '#lib/db/users.ts';
import { Conflict, Forbidden, NotFound } from '#lib/errors.ts';
import { reinstatedMail, suspendedMail } from '#lib/mail/account-notices.ts';
import { mailOp } from '#lib/outbox/queue.ts';
import { TransactionRefused } from '#lib/table/transact.ts';
import * as z from '#lib/zod.ts';

export const SuspendBody = z.strictObject({
  userId: z.string().check(z.minLength(1), z.maxLength(64)),
  reason: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)),
});
export const ReinstateBody = z.strictObject({
  userId: z.string().check(z.minLength(1), z.maxLength(64)),
});

export const SuspensionAnswer = z.strictObject({
  userId: z.string(),
  suspended: z.boolean(),
  /** books unlisted by this call */
  unlisted: z.number().check(z.int()),
});

const isSuspended = (u: UserRecord) => u.suspended === true;

/** The suspension's or the reinstatement's e-mail, under the change's own id, for its transaction. */
const tell = (user: UserRecord, what: 'suspended' | 'reinstated', now: Date) =>
  mailOp(
    {
      id: `${what}.${user.id}.${now.toISOString()}`,
      recipientId: user.id,
      mail: (what === 'suspended' ? suspendedMail : reinstatedMail)(user.firstName),
    },
    now,
  );

/** Unlists every listed book of the user (each its own audited transaction); returns how many. */
async function unlistBooksOf(actorId: string, userId: string, reason: string, now: Date): Promise<number> {
  let unlisted = 0;
  const books = await booksOfOwner(userId, [0]);
  const stamp = { actor: actorId, at: now.toISOString(), reason: `owner suspended: ${reason}` };
  for (const book of books) {
    try {
      await unlistBookOfSuspendedOwner(book, stamp);
      unlisted += 1;
    } catch (err) {
      if (!(err instanceof TransactionRefused)) throw err; // moved meanwhile (bought, unlisted)
    }
  }
  return unlisted;
}

/** The audit entry of a suspension (`suspended` true) or a reinstatement. */
const suspensionAudit = (
  actorId: string,
  userId: string,
  at: string,
  suspended: boolean,
  reason: string | null,
) =>
  newAuditRecord({
    at,
    actor: actorId,
    action: suspended ? 'suspendUser' : 'reinstateUser',
    target: { kind: 'user', id: userId },
    before: { suspended: !suspended },
    after: { suspended },
    reason,
  });

/**
 * Suspends `user` (read not suspended) with its audit entry and the e-mail telling them, unless
 * another call did first (then this one goes on as a repeat call does).
 */
async function suspendOnce(actorId: string, user: UserRecord, reason: string, now: Date): Promise<void> {
  const at = now.toISOString();
  try {
    await suspendUserRecord(
      user.id,
      user.permissionType,
      reason,
      at,
      suspensionAudit(actorId, user.id, at, true, reason),
      tell(user, 'suspended', now),
    );
  } catch (err) {
    if (!(err instanceof TransactionRefused)) throw err;
    const current = await getUser(user.id);
    if (!current || !isSuspended(current)) throw new Conflict('The user changed meanwhile; try again.');
  }
}

export async function suspendUser(
  actor: { userId: string; permissionType: number },
  input: z.infer<typeof SuspendBody>,
  now = new Date(),
) {
  const user = await getUser(input.userId);
  if (!user) throw new NotFound('No such user.');
  if (user.permissionType >= 2)
    throw new Conflict('An owner cannot be suspended.', undefined, 'OWNER_NOT_SUSPENDABLE');
  if (user.permissionType >= 1 && actor.permissionType < 2) {
    throw new Forbidden('Only an owner may suspend an admin.', 'ROLE_REQUIRED');
  }
  if (user.id === actor.userId) throw new Conflict('You cannot suspend yourself.', undefined, 'SELF');
  if (!isSuspended(user)) await suspendOnce(actor.userId, user, input.reason, now);
  const unlisted = await unlistBooksOf(actor.userId, user.id, input.reason, now);
  return { userId: user.id, suspended: true, unlisted };
}

export async function reinstateUser(actorId: string, userId: string, now = new Date()) {
  const user = await getUser(userId);
  if (!user) throw new NotFound('No such user.');
  if (!isSuspended(user)) throw new Conflict('The user is not suspended.', undefined, 'NOT_SUSPENDED');
  const at = now.toISOString();
  try {
    await reinstateUserRecord(
      user.id,
      suspensionAudit(actorId, user.id, at, false, null),
      tell(user, 'reinstated', now),
    );
  } catch (err) {
    if (!(err instanceof TransactionRefused)) throw err;
    // another call reinstated them first: as if this one had read them so
    throw new Conflict('The user is not suspended.', undefined, 'NOT_SUSPENDED');
  }
  return { userId: user.id, suspended: false, unlisted: 0 };
}
