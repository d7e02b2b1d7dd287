/**
 * Suspensions: the user record's `suspended` flag (with `suspendedAt`, `suspendReason`). Suspending
 * also bumps `tokenVersion`, so every live token fails its next call (the auth layer compares it
 * with the record); login refuses a suspended user like a wrong password. Each change is one
 * transaction with its audit entry and the e-mail telling the user.
 */
import type { TransactItem } from '#lib/table/transact.ts';
import type { AuditRecord } from './audit.ts';
import { changeUserWithAudit } from './users.ts';

/**
 * Suspends a user of role `role` (as read) who is not suspended; TransactionRefused when the role
 * changed meanwhile or another call suspended them first (so only one call writes the audit entry,
 * bumps the token version and tells the user).
 */
export async function suspendUserRecord(
  userId: string,
  role: number,
  reason: string,
  at: string,
  audit: AuditRecord,
  mail: TransactItem,
): Promise<void> {
  const change = {
    UpdateExpression:
      'SET suspended = :true, suspendedAt = :at, suspendReason = :reason ADD tokenVersion :one',
    ConditionExpression:
      'attribute_exists(pk) AND permissionType = :role AND attribute_not_exists(suspended)',
    ExpressionAttributeValues: { ':true': true, ':at': at, ':reason': reason, ':one': 1, ':role': role },
  };
  await changeUserWithAudit(userId, change, audit, mail);
}

/**
 * Lifts a suspension (the books stay unlisted); TransactionRefused when the user is not suspended
 * (another call reinstated them first).
 */
export async function reinstateUserRecord(
  userId: string,
  audit: AuditRecord,
  mail: TransactItem,
): Promise<void> {
  const change = {
    UpdateExpression: 'REMOVE suspended, suspendedAt, suspendReason',
    ConditionExpression: 'attribute_exists(pk) AND suspended = :true',
    ExpressionAttributeValues: { ':true': true },
  };
  await changeUserWithAudit(userId, change, audit, mail);
}
