import type { Context, ScheduledEvent } from 'aws-lambda';
import { unlistStaleBooks } from '#lib/dashboard/unlisting.ts';
import { logger } from '#lib/logger.ts';
import { withMetrics } from '#lib/metrics.ts';

/**
 * Daily: unlists status-0 books listed more than 62 days ago and e-mails their owners (the same
 * rule as the owner's deactivateBooks). Stops starting pages when less than a minute is left; the
 * next run carries on. Running it twice changes nothing the second time.
 */
export const handler = withMetrics(async (_event: ScheduledEvent, context: Context) => {
  const result = await unlistStaleBooks({
    now: new Date(),
    actor: 'system:unlistStaleBooks',
    timeLeftMs: () => context.getRemainingTimeInMillis(),
    reserveMs: 60_000,
  });
  logger.info('stale listings unlisted', { ...result });
  return result;
});
