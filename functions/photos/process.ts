import type { S3Event } from 'aws-lambda';
import { logger } from '#lib/logger.ts';
import { processUpload } from '#lib/photos/processing.ts';

/**
 * S3 ObjectCreated under incoming/ (on AWS a bucket notification; locally s3rver's
 * ObjectCreated:Post, forwarded here by the local stack). Each upload is checked, cleaned and
 * attached, or deleted; a redelivered event changes nothing.
 */
export const handler = async (event: S3Event) => {
  const outcomes: string[] = [];
  for (const record of event.Records ?? []) {
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    const outcome = await processUpload(key);
    logger.info('photo upload processed', { key, outcome });
    outcomes.push(outcome);
  }
  return { outcomes };
};
