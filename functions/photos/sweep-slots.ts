import { logger } from '#lib/logger.ts';
import { sweepExpiredSlots } from '#lib/photos/photos.ts';

/**
 * Every 15 minutes: frees the photo slots whose presigned POST expired without an upload (the
 * emulator has no lifecycle rules and DynamoDB Local's TTL never deletes, so this does it).
 */
export const handler = async () => {
  let swept = 0;
  for (let page = 0; page < 20; page++) {
    const n = await sweepExpiredSlots();
    swept += n;
    if (n === 0) break;
  }
  logger.info('expired photo slots swept', { swept });
  return { swept };
};
