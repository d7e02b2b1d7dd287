import type { Context, ScheduledEvent } from 'aws-lambda';
import { runHandoverJob } from '#lib/dashboard/stuck-purchases.ts';
import { logger } from '#lib/logger.ts';
import { withMetrics } from '#lib/metrics.ts';

/**
 * Daily: reminds both sides of tomorrow's agreed hand-overs, and reminds or cancels purchases
 * stuck at status 1 (HANDOVER_REMIND_DAYS, HANDOVER_CANCEL_DAYS). Running it twice changes nothing
 * the second time; a run out of time leaves the rest to the next one.
 */
export const handler = withMetrics(async (_event: ScheduledEvent, context: Context) => {
  const result = await runHandoverJob({
    now: new Date(),
    timeLeftMs: () => context.getRemainingTimeInMillis(),
    reserveMs: 60_000,
  });
  logger.info('hand-over job ran', { ...result });
  return result;
});
