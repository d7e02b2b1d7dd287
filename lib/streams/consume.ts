/**
 * The stream consumer's engine: Powertools' batch processor with partial batch failure reporting.
 * Records are processed one after another (stream order matters for one item), each through every
 * processor that wants it; a record that throws is reported alone in `batchItemFailures` and the
 * rest of the batch is applied.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '#lib/logger.ts';
import type { Budget, ChangeProcessor, StreamChange } from './types.ts';

type Image = Record<string, AttributeValue>;

export function toChange(record: DynamoDBRecord): StreamChange {
  const d = record.dynamodb ?? {};
  return {
    eventName: (record.eventName ?? 'MODIFY') as StreamChange['eventName'],
    eventId: record.eventID ?? d.SequenceNumber ?? '',
    sequenceNumber: d.SequenceNumber ?? '',
    keys: d.Keys ? unmarshall(d.Keys as Image) : {},
    oldImage: d.OldImage ? unmarshall(d.OldImage as Image) : undefined,
    newImage: d.NewImage ? unmarshall(d.NewImage as Image) : undefined,
  };
}

export function makeRecordHandler(processors: ChangeProcessor[], budget: Budget) {
  return async (record: DynamoDBRecord): Promise<void> => {
    const change = toChange(record);
    for (const p of processors) {
      if (!p.wants(change)) continue;
      try {
        await p.apply(change, budget);
      } catch (err) {
        logger.error('stream record failed', {
          processor: p.name,
          sequenceNumber: change.sequenceNumber,
          error: err as Error,
        });
        throw err;
      }
    }
  };
}

export async function consume(
  event: DynamoDBStreamEvent,
  context: Context,
  processors: ChangeProcessor[],
): Promise<DynamoDBBatchResponse> {
  const processor = new BatchProcessor(EventType.DynamoDBStreams);
  return processPartialResponse(
    event,
    makeRecordHandler(processors, { timeLeftMs: () => context.getRemainingTimeInMillis() }),
    processor,
    {
      context,
      processInParallel: false,
      throwOnFullBatchFailure: false,
    },
  );
}
