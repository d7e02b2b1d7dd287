/**
 * Reading why DynamoDB refused a conditional write or a transaction, so repositories can turn it
 * into a domain answer instead of a 500.
 */
import {
  type CancellationReason,
  ConditionalCheckFailedException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';

export const isConditionFailed = (err: unknown): boolean =>
  err instanceof ConditionalCheckFailedException ||
  (err as { name?: string } | null)?.name === 'ConditionalCheckFailedException';

/** A cancelled TransactWriteItems (some condition failed, or a conflicting write raced it). */
export function isTransactionCancelled(
  err: unknown,
): err is Error & { CancellationReasons?: CancellationReason[] } {
  return (
    err instanceof TransactionCanceledException ||
    (err as { name?: string } | null)?.name === 'TransactionCanceledException'
  );
}

/**
 * The cancellation reason codes of a cancelled transaction, in item order (`'None'` for items that
 * were fine), or null when `err` is not a cancelled transaction.
 */
export function cancellationCodes(err: unknown): string[] | null {
  if (!isTransactionCancelled(err)) return null;
  return (err.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
}

/**
 * True when a cancelled transaction failed only because another write raced it (no condition
 * failed): worth retrying.
 */
export function isTransactionConflictOnly(err: unknown): boolean {
  const codes = cancellationCodes(err) ?? [];
  return (
    codes.includes('TransactionConflict') && codes.every((c) => c === 'None' || c === 'TransactionConflict')
  );
}
