/**
 * Throttling per action and address, on the counters of lib/db/throttle.ts.
 */
import { addToWindow, countInWindow } from '#lib/db/throttle.ts';
import { TooManyRequests } from '#lib/errors.ts';
import { retryAfterSeconds, type ThrottlePolicy, throttleWindow } from './rules.ts';

/** Throws 429 (with Retry-After) when the window's count already reached the limit. */
export async function assertNotThrottled(policy: ThrottlePolicy, subject: string, now: Date): Promise<void> {
  const count = await countInWindow(policy.action, subject, throttleWindow(policy, now));
  if (count >= policy.limit) throw new TooManyRequests(retryAfterSeconds(policy, now));
}

/** Counts one event (e.g. a failed login). */
export async function recordEvent(policy: ThrottlePolicy, subject: string, now: Date): Promise<number> {
  return addToWindow(policy.action, subject, throttleWindow(policy, now));
}

/** Counts one event and says whether it was still within the limit (e.g. an e-mail may go out). */
export async function takeAllowance(policy: ThrottlePolicy, subject: string, now: Date): Promise<boolean> {
  return (await recordEvent(policy, subject, now)) <= policy.limit;
}
