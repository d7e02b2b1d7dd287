import { describe, expect, it } from 'vitest';
import { CONFLICT_RETRY, conflictRetryDelay, NO_RETRY } from '#lib/table/conflict-retry.ts';

describe('the conflict retry policy', () => {
  it('is bounded: a delay for each allowed retry, then none', () => {
    const delays = [0, 1, 2, 3, 4].map((attempt) => conflictRetryDelay(CONFLICT_RETRY, attempt, () => 0));
    expect(delays).toEqual([20, 40, 80, null, null]);
  });

  it('adds up to jitterMs at random to the exponential pause', () => {
    expect(conflictRetryDelay(CONFLICT_RETRY, 0, () => 0.5)).toBe(30);
    expect(conflictRetryDelay(CONFLICT_RETRY, 2, () => 0.999)).toBeCloseTo(99.98, 2);
  });

  it('NO_RETRY never retries', () => {
    expect(conflictRetryDelay(NO_RETRY, 0, () => 0)).toBeNull();
  });
});
