import type { Context, ScheduledEvent } from 'aws-lambda';
import { logger } from '#lib/logger.ts';
import { withMetrics } from '#lib/metrics.ts';
import { previousUtcDay, sendDailyDigests } from '#lib/preferences/digest.ts';

/**
 * Daily, just after midnight UTC: one e-mail per user whose matches preference is `daily`, listing
 * the previous UTC day's matches still available. Running it again the same day sends nothing.
 */
export const handler = withMetrics(async (_event: ScheduledEvent, context: Context) => {
  const result = await sendDailyDigests({
    day: previousUtcDay(new Date()),
    timeLeftMs: () => context.getRemainingTimeInMillis(),
    reserveMs: 30_000,
  });
  logger.info('daily digests sent', { ...result });
  return result;
});
