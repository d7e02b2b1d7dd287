/**
 * Replaying the stream records that ran out of retries (kept whole by the consumers, see
 * lib/db/stream-failures.ts): each kept record goes again through the processors of the consumer
 * that failed on it, only those not done with it, the oldest failure first. A record that now
 * succeeds is forgotten; one that fails again stays kept, its attempt counted.
 *
 * Processors are idempotent (at-least-once delivery), so replaying a record the stream also retried
 * changes nothing more.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { keptStreamFailures } from '#lib/db/stream-failures.ts';
import { applyRecord } from './consume.ts';
import type { ChangeProcessor } from './types.ts';

export interface ReplayResult {
  replayed: number;
  failed: number;
  /** kept records no consumer here knows, or kept by their keys only (too big to keep whole) */
  skipped: number;
}

export async function replayStreamFailures(
  consumers: Record<string, ChangeProcessor[]>,
  progress: (line: string) => void = () => {},
): Promise<ReplayResult> {
  const result: ReplayResult = { replayed: 0, failed: 0, skipped: 0 };
  for await (const page of keptStreamFailures()) {
    for (const kept of page) {
      const processors = consumers[kept.consumer];
      const record = JSON.parse(kept.record) as DynamoDBRecord & { truncated?: boolean };
      if (!processors || record.truncated) {
        result.skipped++;
        progress(
          `skipped ${kept.eventId} (${processors ? 'kept by its keys only' : `unknown consumer ${kept.consumer}`})`,
        );
        continue;
      }
      try {
        await applyRecord(record, processors, undefined, kept.consumer, kept);
        result.replayed++;
        progress(`replayed ${kept.eventId} (${kept.failed.join(', ')})`);
      } catch (err) {
        result.failed++;
        progress(`failed again ${kept.eventId}: ${(err as Error).message}`);
      }
    }
  }
  return result;
}
