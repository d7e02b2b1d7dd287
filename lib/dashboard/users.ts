/**
 * Users as admins and owners see and change them: the paged list, the prefix search, and the
 * owner's role moves (makeAdmin 0 -> 1, revokeAdmin 1 -> 0), each with its audit entry and an
 * e-mail to the user.
 */

import { config } from '#lib/config.ts';
import { newAuditRecord } from '#lib/db/audit.ts';
import type { OutboxMail } from '#lib/db/outbox.ts';
import { findUserIdsByPrefix } from '#lib/db/user-search.ts';
import { changeRole, getUser, getUsersById, listUsers } from '#lib/db/users.ts';
import { Conflict, NotFound } from '#lib/errors.ts';
import { adminRevokedMail } from '#lib/mail/account-notices.ts';
import { appLinks, appPaths } from '#lib/mail/links.ts';
import { noticeMail } from '#lib/mail/notice.ts';
import { mailOp } from '#lib/outbox/queue.ts';
import { TransactionRefused } from '#lib/table/transact.ts';
import { ROLE_MOVES, type RoleAction, searchForm } from './rules.ts';
import { type AdminUser, toAdminUser } from './schemas.ts';

export async function getUsersPage(limit: number, cursor: string | undefined) {
  const page = await listUsers(limit, cursor);
  return { items: page.items.map(toAdminUser), next: page.next };
}

/**
 * Users whose e-mail address, first or last name starts with `query` (case-insensitive), e-mail
 * matches first; at most `limit`. One Query per field and one BatchGet.
 */
/** A user id (a ULID), as the reports and the audit log show it. */
const USER_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
/** How many users whose first word matches a full-name search reads to keep the full matches. */
export const FULL_NAME_READ = 100;

/**
 * Users whose e-mail, first name, last name or campus starts with `query`; a user id finds that
 * user; several words ("sara sel") find users whose full name starts with them (read by the first
 * word, at most FULL_NAME_READ, then kept by the whole). Bounded: one Query per field and a BatchGet.
 */
export async function findUsers(query: string, limit: number): Promise<AdminUser[]> {
  const prefix = searchForm(query);
  if (!prefix) return [];
  if (USER_ID.test(prefix.toUpperCase())) {
    const user = await getUser(prefix.toUpperCase());
    return user ? [toAdminUser(user)] : [];
  }
  const words = prefix.split(/\s+/);
  const fullName = words.length > 1;
  const ids = await findUserIdsByPrefix(words[0] as string, fullName ? FULL_NAME_READ : limit);
  const users = await getUsersById(ids);
  return ids
    .flatMap((id) => {
      const u = users.get(id);
      if (!u) return [];
      if (
        fullName &&
        !searchForm(`${u.firstName} ${u.lastName}`).replace(/\s+/g, ' ').startsWith(words.join(' '))
      )
        return [];
      return [toAdminUser(u)];
    })
    .slice(0, limit);
}

/**
 * Moves the role with its audit entry and the e-mail telling the user (essential: no preference
 * turns it off), in one transaction; the e-mail's outbox id is the role change's own.
 */
async function moveRole(
  actorId: string,
  action: RoleAction,
  userId: string,
  mail: (firstName: string) => OutboxMail,
  now: Date,
): Promise<AdminUser> {
  const { from, to } = ROLE_MOVES[action];
  const conflict = (role: number) =>
    new Conflict(
      `The user has permissionType ${role}; ${action} needs ${from}.`,
      [{ field: 'userId', message: `permissionType is ${role}`, permissionType: role }],
      'WRONG_ROLE',
    );
  const user = await getUser(userId);
  if (!user) throw new NotFound('No such user.');
  if (user.permissionType !== from) throw conflict(user.permissionType);
  const at = now.toISOString();
  try {
    await changeRole(
      userId,
      from,
      to,
      newAuditRecord({
        at,
        actor: actorId,
        action,
        target: { kind: 'user', id: userId },
        before: { permissionType: from },
        after: { permissionType: to },
        reason: null,
      }),
      mailOp({ id: `role.${action}.${userId}.${at}`, recipientId: userId, mail: mail(user.firstName) }, now),
    );
  } catch (err) {
    if (!(err instanceof TransactionRefused)) throw err;
    const current = await getUser(userId);
    if (!current) throw new NotFound('No such user.');
    throw conflict(current.permissionType);
  }
  return toAdminUser({ ...user, permissionType: to });
}

/**
 * PUT /api/dashboard/makeAdmin. The new admin gets an e-mail asking them to turn two-factor sign-in
 * on, which the dashboard needs where the stage says so (REQUIRE_ADMIN_MFA).
 */
export const makeAdmin = (actorId: string, userId: string, now = new Date()): Promise<AdminUser> =>
  moveRole(actorId, 'makeAdmin', userId, enrolTotpMail, now);

/** The e-mail a new admin gets: turn two-factor sign-in on, with a link to the page that does it. */
export function enrolTotpMail(firstName: string): OutboxMail {
  const required = config.REQUIRE_ADMIN_MFA
    ? 'The dashboard opens only to admins who signed in with a code.'
    : 'Please do it now: it keeps the dashboard safe if your password ever leaks.';
  return noticeMail({
    subject: 'You are an admin: turn on two-factor sign-in',
    message: 'You are now an admin of Campus Books.',
    details: [
      `Turn on two-factor sign-in under Settings, "Two-factor sign-in": scan the QR code with an authenticator app, enter its code, and keep the recovery codes somewhere safe. ${required}`,
    ],
    linkLabel: 'Open your settings',
    link: appLinks.page(appPaths.settings()),
  })(firstName);
}

/** PUT /api/dashboard/revokeAdmin. The former admin is told by e-mail, as the new one is. */
export const revokeAdmin = (actorId: string, userId: string, now = new Date()): Promise<AdminUser> =>
  moveRole(actorId, 'revokeAdmin', userId, adminRevokedMail, now);
