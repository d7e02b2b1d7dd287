/**
 * Reading why DynamoDB refused a conditional write or a transaction, so repositories can turn it
 * into a domain answer instead of a 500.
 */

interface CancellationReason {
  Code?: string;
}

/** A cancelled TransactWriteItems (some condition failed, or a conflicting write raced it). */
export function isTransactionCancelled(
  err: unknown,
): err is Error & { CancellationReasons?: CancellationReason[] } {
  return err instanceof Error && err.name === 'TransactionCanceledException';
}

/** The reason codes of a cancelled transaction, in item order ('None' for items that were fine). */
export function cancellationCodes(err: unknown): string[] {
  if (!isTransactionCancelled(err)) return [];
  return (err.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
}

/**
 * True when a cancelled transaction failed only because another write raced it (no condition
 * failed): worth retrying.
 */
export function isTransactionConflictOnly(err: unknown): boolean {
  const codes = cancellationCodes(err);
  return (
    codes.length > 0 &&
    codes.includes('TransactionConflict') &&
    codes.every((c) => c === 'None' || c === 'TransactionConflict')
  );
}

export function isConditionFailed(err: unknown): boolean {
  return err instanceof Error && err.name === 'ConditionalCheckFailedException';
}
