/**
 * The outbox's timing (lib/outbox/outbox.ts), apart from the sending code, so the writers of
 * outbox messages (notify, the unlisting) do not bundle the SES client.
 */
const MINUTE = 60_000;
/** How long a claim holds: a consumer that died while sending is woken after this. */
export const LEASE_MS = 5 * MINUTE;
/** How long a ready message may wait for its stream record before the sweeper wakes it again. */
export const READY_GRACE_MS = 10 * MINUTE;
/** How long an open message may stay open: longer than any run that writes one (Lambda's 15 minutes). */
export const OPEN_GRACE_MS = 20 * MINUTE;
/** How long the outbox keeps trying (stream records themselves expire after 24 hours). */
export const MAX_AGE_MS = 3 * 24 * 60 * MINUTE;

/** The wait before attempt `attempts + 1`: 5 minutes, doubling, at most 6 hours. Pure. */
export const retryDelayMs = (attempts: number): number =>
  Math.min(5 * MINUTE * 2 ** Math.max(0, attempts - 1), 6 * 60 * MINUTE);

/** `now` plus `plusMs`, as ISO-8601. */
export const at = (now: Date, plusMs: number): string => new Date(now.getTime() + plusMs).toISOString();
