/**
 * Stream records some processor failed on (`STREAMFAIL#<eventID>` / `STREAMFAIL`): the record kept
 * whole (keys and images, as Lambda delivered it) with the processors already done with it. The
 * consumer reads these for each batch (one BatchGetItem), so a retried record runs only the
 * processors that failed; a record that ran out of the stream's retries stays here (30 days) for
 * the replay script (scripts/replay-stream-failures.ts).
 */

import { batchGet } from '#lib/table/batch.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { DeleteCommand, PutCommand } from '#lib/table/commands.ts';
import { queryPages } from '#lib/table/page.ts';
import { expiresAfter } from '#lib/values/expiry.ts';
import { INDEX, STREAM_FAILURES_PK, streamFailureKey, streamFailuresIndex } from './keys.ts';

/** STREAMFAIL#<eventId> / STREAMFAIL */
export interface StreamFailureRecord {
  type: 'streamFailure';
  eventId: string;
  /** which consumer's processors (the replay script runs the same ones) */
  consumer: string;
  /** the stream record as delivered (JSON of the Lambda event's record) */
  record: string;
  /** processors that applied the record */
  done: string[];
  /** processors that failed on the last attempt */
  failed: string[];
  lastError: string;
  attempts: number;
  firstFailedAt: string;
  lastFailedAt: string;
  ttl: number;
}

const KEEP_SECONDS = 30 * 86_400;
/** A record too big to keep whole within DynamoDB's 400 KB item limit keeps its keys only. */
const MAX_RECORD_CHARS = 350_000;

/** The failures stored for these stream records, by event id (one BatchGetItem per 100). */
export async function getStreamFailures(eventIds: string[]): Promise<Map<string, StreamFailureRecord>> {
  if (eventIds.length === 0) return new Map();
  const items = await batchGet<StreamFailureRecord>(eventIds.map(streamFailureKey), { consistent: true });
  return new Map(items.map((i) => [i.eventId, i]));
}

/** Stores (or replaces) the failure of one record (one PutItem). */
export async function putStreamFailure(
  f: Omit<StreamFailureRecord, 'type' | 'ttl' | 'record'> & { record: unknown },
): Promise<void> {
  let record = JSON.stringify(f.record);
  if (record.length > MAX_RECORD_CHARS) {
    const r = f.record as { dynamodb?: { Keys?: unknown; SequenceNumber?: string } };
    record = JSON.stringify({
      truncated: true,
      dynamodb: { Keys: r.dynamodb?.Keys, SequenceNumber: r.dynamodb?.SequenceNumber },
    });
  }
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: {
        ...streamFailureKey(f.eventId),
        ...streamFailuresIndex(f.firstFailedAt, f.eventId),
        ...f,
        type: 'streamFailure',
        record,
        ttl: expiresAfter(Date.parse(f.lastFailedAt), KEEP_SECONDS),
      },
    }),
  );
}

/** Forgets a record's failure once every processor is done with it (one DeleteItem). */
export async function deleteStreamFailure(eventId: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: TABLE, Key: streamFailureKey(eventId) }));
}

/**
 * Every kept failure, the oldest first, a page (one Query of gsi1) at a time; the walk goes on
 * from where it stopped, so failures deleted meanwhile (replayed ones) do not disturb it.
 */
export async function* keptStreamFailures(): AsyncGenerator<StreamFailureRecord[]> {
  yield* queryPages({
    IndexName: INDEX.gsi1,
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': STREAM_FAILURES_PK },
  }) as AsyncGenerator<StreamFailureRecord[]>;
}
