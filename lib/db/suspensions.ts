/**
 * Suspensions: the user record's `suspended` flag (with `suspendedAt`, `suspendReason`). Suspending
 * also bumps `tokenVersion`, so every live token fails its next call (the auth layer compares it
 * with the record); login refuses a suspended user like a wrong password. Each change is one
 * transaction with its audit entry.
 */
import { type AuditRecord, auditPutOp } from './audit.ts';
import { TABLE } from './client.ts';
import { userKey } from './keys.ts';
import { tag, transactOrThrow } from './transact.ts';

/** Suspends a user of role `role` (as read); TransactionRefused when the role changed meanwhile. */
export async function suspendUserRecord(
  userId: string,
  role: number,
  reason: string,
  at: string,
  audit: AuditRecord,
): Promise<void> {
  await transactOrThrow([
    tag('user', {
      Update: {
        TableName: TABLE,
        Key: userKey(userId),
        UpdateExpression:
          'SET suspended = :true, suspendedAt = :at, suspendReason = :reason ADD tokenVersion :one',
        ConditionExpression: 'attribute_exists(pk) AND permissionType = :role',
        ExpressionAttributeValues: { ':true': true, ':at': at, ':reason': reason, ':one': 1, ':role': role },
      },
    }),
    tag('audit', auditPutOp(audit)),
  ]);
}

/** Lifts a suspension (the books stay unlisted). */
export async function reinstateUserRecord(userId: string, audit: AuditRecord): Promise<void> {
  await transactOrThrow([
    tag('user', {
      Update: {
        TableName: TABLE,
        Key: userKey(userId),
        UpdateExpression: 'REMOVE suspended, suspendedAt, suspendReason',
        ConditionExpression: 'attribute_exists(pk)',
      },
    }),
    tag('audit', auditPutOp(audit)),
  ]);
}
