/**
 * Throttling per action and address, on the counters of lib/db/throttle.ts.
 */
import { addToWindow, addToWindowIfBelow, countInWindow, removeFromWindow } from '#lib/db/throttle.ts';
import { TooManyRequests } from '#lib/errors.ts';
import {
  allowedInCurrentWindow,
  previousWindow,
  retryAfterSeconds,
  type ThrottlePolicy,
  throttleWindow,
} from './rules.ts';

/**
 * Counts one attempt BEFORE the work it guards (a password compare), with an atomic conditional
 * increment over a sliding window: past the limit it throws 429 (with Retry-After) and the work
 * never runs, however many attempts arrive at once. Returns `succeeded`, to call when the attempt
 * turned out right: it gives the count back, so only failures stay counted.
 */
export async function takeAttempt(
  policy: ThrottlePolicy,
  subject: string,
  now: Date,
): Promise<{ succeeded: () => Promise<void> }> {
  const current = throttleWindow(policy, now);
  const previousCount = await countInWindow(policy.action, subject, previousWindow(policy, now));
  const allowed = allowedInCurrentWindow(policy, previousCount, now);
  const count = await addToWindowIfBelow(policy.action, subject, current, allowed);
  if (count === null) throw new TooManyRequests(retryAfterSeconds(policy, now));
  return { succeeded: () => removeFromWindow(policy.action, subject, current) };
}

/** Counts one event (e.g. an e-mail sent). */
export async function recordEvent(policy: ThrottlePolicy, subject: string, now: Date): Promise<number> {
  return addToWindow(policy.action, subject, throttleWindow(policy, now));
}

/** Counts one event and says whether it was still within the limit (e.g. an e-mail may go out). */
export async function takeAllowance(policy: ThrottlePolicy, subject: string, now: Date): Promise<boolean> {
  return (await recordEvent(policy, subject, now)) <= policy.limit;
}
