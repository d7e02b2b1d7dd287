/**
 * Replays the stream records that ran out of the consumers' retries (docs/concurrency.md, "Stream
 * failures"). Uses the stage's configuration (TABLE_NAME, DYNAMODB_ENDPOINT, ...):
 *   STAGE=local npx tsx scripts/replay-stream-failures.ts
 * Safe to run again: processors are idempotent, and a replayed record is forgotten.
 */
import { outboxProcessors } from '#functions/streams/outbox.ts';
import { processors } from '#functions/streams/processors.ts';
import { replayStreamFailures } from '#lib/streams/replay.ts';

console.log('replaying kept stream failures, oldest first...');
const result = await replayStreamFailures({ main: processors, outbox: outboxProcessors }, (line) =>
  console.log(`  ${line}`),
);
console.log(`done: ${result.replayed} replayed, ${result.failed} failed again, ${result.skipped} skipped`);
if (result.failed > 0) process.exitCode = 1;
