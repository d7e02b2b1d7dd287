/**
 * The stream consumers' engine: Powertools' batch processor with partial batch failure reporting.
 * Records are processed one after another (stream order matters for one item), each through every
 * processor that wants it.
 *
 * Processors of one record run independently: each is tried even when another failed. A record
 * some processor failed on is kept whole with the names of the processors done with it
 * (lib/db/stream-failures.ts) and reported alone in `batchItemFailures`; when the stream delivers it
 * again, only the processors not done run, and once all are, the kept failure is deleted. A record
 * that runs out of the stream's retries stays kept for scripts/replay-stream-failures.ts. The kept
 * failures of a batch are read in one BatchGetItem.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import {
  deleteStreamFailure,
  getStreamFailures,
  putStreamFailure,
  type StreamFailureRecord,
} from '#lib/db/stream-failures.ts';
import { logger } from '#lib/logger.ts';
import type { Budget, ChangeProcessor, StreamChange } from './types.ts';

type Image = Record<string, AttributeValue>;

/**
 * An empty map can arrive as `{}` instead of `{ M: {} }`: the AWS SDK's stream reader (the local
 * stack's serverless-offline-dynamodb-streams, and the tests) decodes `{"M":{}}` to an empty
 * object, which `unmarshall` refuses ("No value defined"), failing the whole record. Lambda's own
 * events carry `{"M":{}}`; both read the same after this.
 */
function withEmptyMaps(value: AttributeValue): AttributeValue {
  if (Object.keys(value).length === 0) return { M: {} };
  if (value.M) return { M: emptyMapsRestored(value.M) };
  if (value.L) return { L: value.L.map(withEmptyMaps) };
  return value;
}

function emptyMapsRestored(image: Image): Image {
  return Object.fromEntries(Object.entries(image).map(([k, v]) => [k, withEmptyMaps(v)]));
}

const native = (image: unknown) => unmarshall(emptyMapsRestored(image as Image));

export function toChange(record: DynamoDBRecord): StreamChange {
  const d = record.dynamodb ?? {};
  return {
    eventName: (record.eventName ?? 'MODIFY') as StreamChange['eventName'],
    eventId: record.eventID ?? d.SequenceNumber ?? '',
    sequenceNumber: d.SequenceNumber ?? '',
    keys: d.Keys ? native(d.Keys) : {},
    oldImage: d.OldImage ? native(d.OldImage) : undefined,
    newImage: d.NewImage ? native(d.NewImage) : undefined,
  };
}

/** The processors that failed on a record (each error kept), thrown so the record is retried. */
export class ProcessorsFailed extends Error {
  override name = 'ProcessorsFailed';
  constructor(readonly errors: Map<string, Error>) {
    super(
      `stream record failed in ${[...errors.keys()].join(', ')}: ${[...errors.values()].map((e) => e.message).join('; ')}`,
    );
  }
}

/**
 * Applies one record: every processor that wants it and is not done with it yet (`kept`, the
 * record's earlier failure). Keeps the failure when some processor fails, forgets it when none does.
 */
export async function applyRecord(
  record: DynamoDBRecord,
  processors: ChangeProcessor[],
  budget: Budget | undefined,
  consumer: string,
  kept: StreamFailureRecord | undefined,
): Promise<void> {
  const change = toChange(record);
  const done = new Set(kept?.done ?? []);
  const errors = new Map<string, Error>();
  for (const p of processors) {
    if (done.has(p.name) || !p.wants(change)) continue;
    try {
      await p.apply(change, budget);
      done.add(p.name);
    } catch (err) {
      errors.set(p.name, err as Error);
      logger.error('stream record failed', {
        processor: p.name,
        sequenceNumber: change.sequenceNumber,
        error: err as Error,
      });
    }
  }
  if (errors.size === 0) {
    if (kept) await deleteStreamFailure(change.eventId);
    return;
  }
  const now = new Date().toISOString();
  await putStreamFailure({
    eventId: change.eventId,
    consumer,
    record,
    done: [...done],
    failed: [...errors.keys()],
    lastError: [...errors.values()]
      .map((e) => `${e.name}: ${e.message}`)
      .join('; ')
      .slice(0, 2000),
    attempts: (kept?.attempts ?? 0) + 1,
    firstFailedAt: kept?.firstFailedAt ?? now,
    lastFailedAt: now,
  });
  throw new ProcessorsFailed(errors);
}

/**
 * Processes a batch through `processors`; `consumer` names the processor set in kept failures
 * ('main', 'outbox'), so the replay script runs the same set.
 */
export async function consume(
  event: DynamoDBStreamEvent,
  context: Context,
  processors: ChangeProcessor[],
  consumer = 'main',
): Promise<DynamoDBBatchResponse> {
  const kept = await getStreamFailures(
    event.Records.map((r) => r.eventID ?? r.dynamodb?.SequenceNumber ?? ''),
  );
  const budget: Budget = { timeLeftMs: () => context.getRemainingTimeInMillis() };
  const processor = new BatchProcessor(EventType.DynamoDBStreams);
  return processPartialResponse(
    event,
    (record: DynamoDBRecord) =>
      applyRecord(record, processors, budget, consumer, kept.get(toChange(record).eventId)),
    processor,
    {
      context,
      processInParallel: false,
      throwOnFullBatchFailure: false,
    },
  );
}
