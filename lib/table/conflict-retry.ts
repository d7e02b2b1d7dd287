/**
 * The retry policy of the transaction runner (lib/table/transact.ts) for a transaction that lost only
 * a race (every refused item says `TransactionConflict`, no condition failed): a bounded number of
 * retries, each after an exponential, jittered pause. When they are spent the runner gives up with
 * `Busy` (a 503 with Retry-After at the edge).
 */
export interface ConflictRetryPolicy {
  /** Retries after the first attempt (0: never retry). */
  retries: number;
  /** The pause before retry n (0-based) is `baseDelayMs * 2^n` plus up to `jitterMs` at random. */
  baseDelayMs: number;
  jitterMs: number;
}

/** The default: up to 3 retries after 20-40, 40-60 and 80-100 ms. */
export const CONFLICT_RETRY: ConflictRetryPolicy = { retries: 3, baseDelayMs: 20, jitterMs: 20 };

/** For callers with their own retry loop (checkout re-reads the cart and builds a new order). */
export const NO_RETRY: ConflictRetryPolicy = { retries: 0, baseDelayMs: 0, jitterMs: 0 };

/** The pause before retry `attempt` (0-based), or null when the policy allows no more retries. */
export function conflictRetryDelay(
  policy: ConflictRetryPolicy,
  attempt: number,
  random: () => number = Math.random,
): number | null {
  if (attempt >= policy.retries) return null;
  return policy.baseDelayMs * 2 ** attempt + random() * policy.jitterMs;
}
