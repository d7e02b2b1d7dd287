import type { Context, ScheduledEvent } from 'aws-lambda';
import { logger } from '#lib/logger.ts';
import { withMetrics } from '#lib/metrics.ts';
import { sweepOutbox } from '#lib/outbox/outbox.ts';

/**
 * Every 5 minutes: wakes the outbox messages whose wait is over (a failed send's back-off, a claim
 * that expired, a notice a dead run left open) and gives up, with an alarm, on those 3 days old.
 */
export const handler = withMetrics(async (_event: ScheduledEvent, _context: Context) => {
  const result = await sweepOutbox(new Date());
  logger.info('outbox swept', { ...result });
  return result;
});
