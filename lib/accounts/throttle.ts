/**
 * Throttling per action and address, on the counters of lib/db/throttle.ts.
 */
import {
  addToWindow,
  addToWindowIfBelow,
  countInWindow,
  removeFromWindow,
  type Window,
} from '#lib/db/throttle.ts';
import { TooManyRequests } from '#lib/errors.ts';
import {
  allowedInCurrentWindow,
  previousWindow,
  retryAfterSeconds,
  type ThrottlePolicy,
  throttleWindow,
} from './rules.ts';

/**
 * Takes one of the policy's slots over a sliding window (the last `windowSeconds`, estimated from
 * the previous fixed window's count and the current one's, see allowedInCurrentWindow), with an
 * atomic conditional increment: however many callers arrive at once, and whether or not a window
 * edge falls between them, no more than the limit get one. The current window when a slot was
 * taken, else null (nothing counted).
 */
async function takeSlot(policy: ThrottlePolicy, subject: string, now: Date): Promise<Window | null> {
  const current = throttleWindow(policy, now);
  const previousCount = await countInWindow(policy.action, subject, previousWindow(policy, now));
  const allowed = allowedInCurrentWindow(policy, previousCount, now);
  return (await addToWindowIfBelow(policy.action, subject, current, allowed)) === null ? null : current;
}

/**
 * Counts one attempt BEFORE the work it guards (a password compare): past the limit it throws 429
 * (with Retry-After) and the work never runs. Returns `succeeded`, to call when the attempt turned
 * out right: it gives the count back, so only failures stay counted.
 */
export async function takeAttempt(
  policy: ThrottlePolicy,
  subject: string,
  now: Date,
): Promise<{ succeeded: () => Promise<void> }> {
  const current = await takeSlot(policy, subject, now);
  if (current === null) throw new TooManyRequests(retryAfterSeconds(policy, now));
  return { succeeded: () => removeFromWindow(policy.action, subject, current) };
}

/** Counts one event in a fixed window and returns the count (e.g. requests from one address). */
export async function recordEvent(policy: ThrottlePolicy, subject: string, now: Date): Promise<number> {
  return addToWindow(policy.action, subject, throttleWindow(policy, now));
}

/**
 * Takes one of the policy's slots over the sliding window and says whether it got one (e.g. an
 * e-mail may go out). A burst that straddles a window edge still gets only the limit, not twice it.
 */
export async function takeAllowance(policy: ThrottlePolicy, subject: string, now: Date): Promise<boolean> {
  return (await takeSlot(policy, subject, now)) !== null;
}
