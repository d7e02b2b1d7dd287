/**
 * Throttling per action and address, on the counters of lib/db/throttle.ts.
 */
import { addToWindowIfBelow, countInWindow, removeFromWindow, type Window } from '#lib/db/throttle.ts';
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
 * taken (and counted), else the seconds until one frees (nothing counted).
 */
async function takeSlot(
  policy: ThrottlePolicy,
  subject: string,
  now: Date,
): Promise<{ taken: Window; last: boolean } | { retryAfter: number }> {
  const current = throttleWindow(policy, now);
  const previousCount = await countInWindow(policy.action, subject, previousWindow(policy, now));
  const allowed = allowedInCurrentWindow(policy, previousCount, now);
  const count = await addToWindowIfBelow(policy.action, subject, current, allowed);
  return count === null
    ? { retryAfter: retryAfterSeconds(policy, previousCount, now) }
    : { taken: current, last: count >= allowed };
}

/**
 * Counts one attempt BEFORE the work it guards (a password compare, an e-mail-sending request):
 * past the limit it throws 429 (with Retry-After) and the work never runs. Returns `succeeded`,
 * to call when the attempt turned out right: it gives the count back, so only failures stay
 * counted, and `last`: this attempt took the window's last slot (the next one is refused).
 */
export async function takeAttempt(
  policy: ThrottlePolicy,
  subject: string,
  now: Date,
): Promise<{ succeeded: () => Promise<void>; last: boolean }> {
  const slot = await takeSlot(policy, subject, now);
  if ('retryAfter' in slot) throw new TooManyRequests(slot.retryAfter);
  return { succeeded: () => removeFromWindow(policy.action, subject, slot.taken), last: slot.last };
}

/**
 * Takes one of the policy's slots and says whether it got one (e.g. an e-mail may go out). A
 * burst that straddles a window edge still gets only the limit, not twice it.
 */
export async function takeAllowance(policy: ThrottlePolicy, subject: string, now: Date): Promise<boolean> {
  return 'taken' in (await takeSlot(policy, subject, now));
}
