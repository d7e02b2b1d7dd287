/**
 * Reading why DynamoDB refused a write: a failed condition of a single conditional write, or a
 * cancelled transaction (whose reasons only the runner, lib/db/transact.ts, decodes).
 */
import type { CancellationReason } from '@aws-sdk/client-dynamodb';

/** A single conditional write (Put, Update, Delete) whose condition failed. */
export const isConditionFailed = (err: unknown): boolean =>
  (err as { name?: string } | null)?.name === 'ConditionalCheckFailedException';

/** A cancelled TransactWriteItems (some condition failed, or a conflicting write raced it). */
export function isTransactionCancelled(
  err: unknown,
): err is Error & { CancellationReasons?: CancellationReason[] } {
  return (err as { name?: string } | null)?.name === 'TransactionCanceledException';
}

/** A call DynamoDB refused for rate (retried by the transport; what is left after the retries is this). */
export { isThrottling } from '#lib/aws/json-client.ts';

/** Network failures reaching DynamoDB (after the SDK's own retries): the database is unavailable. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** A call that never got an answer from DynamoDB (connection refused or reset, a time-out). */
export const isUnreachable = (err: unknown): boolean => {
  const e = err as { name?: string; code?: string } | null;
  return UNREACHABLE.has(e?.code ?? '') || e?.name === 'TimeoutError';
};

/** Cancellation reasons that say the transaction lost a race or was throttled, not that it was refused. */
export const TRANSIENT_REASONS: ReadonlySet<string> = new Set([
  'None',
  'TransactionConflict',
  'ThrottlingError',
]);
