import type { Context, ScheduledEvent } from 'aws-lambda';
import { logger } from '#lib/logger.ts';
import { withMetrics } from '#lib/metrics.ts';
import { resumeAccountDeletions } from '#lib/privacy/deletion.ts';

/** Every 15 minutes: finishes account deletions that a crash or the request's time budget left unfinished. */
export const handler = withMetrics(async (_event: ScheduledEvent, context: Context) => {
  const result = await resumeAccountDeletions({
    timeLeftMs: () => context.getRemainingTimeInMillis(),
    reserveMs: 30_000,
  });
  logger.info('account deletions resumed', { ...result });
  return result;
});
