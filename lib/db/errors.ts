/** Reading DynamoDB's condition failures, so repositories can turn them into domain outcomes. */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';

export const isConditionFailed = (err: unknown): boolean =>
  err instanceof ConditionalCheckFailedException ||
  (err as { name?: string } | null)?.name === 'ConditionalCheckFailedException';

/**
 * The cancellation reason codes of a cancelled transaction, in item order (`'None'` for items that
 * were fine), or null when `err` is not a cancelled transaction.
 */
export function cancellationCodes(err: unknown): string[] | null {
  const e = err as { name?: string; CancellationReasons?: Array<{ Code?: string }> } | null;
  if (!(err instanceof TransactionCanceledException) && e?.name !== 'TransactionCanceledException')
    return null;
  return (e?.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
}
