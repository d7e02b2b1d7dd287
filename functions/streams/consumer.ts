import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { withMetrics } from '#lib/metrics.ts';
import { consume } from '#lib/streams/consume.ts';
import { processors } from './processors.ts';

/** The table's stream consumer: search index, matching, notifications (see functions/streams/processors.ts). */
export const handler = withMetrics(
  (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> =>
    consume(event, context, processors),
);
