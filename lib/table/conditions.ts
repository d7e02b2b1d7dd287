/**
 * Reading why DynamoDB refused a write: a failed condition of a single conditional write, or a
 * cancelled transaction (whose reasons only the runner, lib/table/transact.ts, decodes).
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

/**
 * What DynamoDB answers when a partition, a table or the account is over its rate, or a
 * transaction with the same token is still running (the SDK retries them all as throttling).
 */
const THROTTLING = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TransactionInProgressException',
]);

/** A call refused for rate (retried by the SDK; what is left after the retries is this). */
export const isThrottling = (err: unknown): boolean =>
  THROTTLING.has((err as { name?: string } | null)?.name ?? '');

/** Network failures reaching DynamoDB (after the SDK's own retries): the database is unavailable. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * A call that never got an answer from DynamoDB: connection refused or reset, an address that does
 * not resolve or cannot be reached, a connect or request time-out (the SDK names those TimeoutError).
 */
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
