import type { Context, ScheduledEvent } from 'aws-lambda';
import { logger } from '#lib/logger.ts';
import { withMetrics } from '#lib/metrics.ts';
import { runDailyDigests } from '#lib/preferences/digest.ts';

/**
 * Hourly, five past: one e-mail per user whose matches preference is `daily`, listing the previous
 * UTC day's matches still available; the first run after midnight sends them, later runs carry on
 * a day a run left unfinished and otherwise read two items. Running it again sends nothing twice.
 */
export const handler = withMetrics(async (_event: ScheduledEvent, context: Context) => {
  const result = await runDailyDigests({
    timeLeftMs: () => context.getRemainingTimeInMillis(),
    reserveMs: 30_000,
  });
  logger.info('daily digests', { runs: result });
  return result;
});
