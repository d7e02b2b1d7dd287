/**
 * Reads the real stream of this test file's table from DynamoDB Local, so consumer tests feed
 * the consumer exactly what Lambda would.
 */
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { outboxProcessors } from '#functions/streams/outbox.ts';
import { processors } from '#functions/streams/processors.ts';
import { consume, toChange } from '#lib/streams/consume.ts';
import type { ChangeProcessor } from '#lib/streams/types.ts';
import { measured, watchCalls } from '#lib/table/metrics.ts';
import { makeContext } from './lambda.ts';

const endpoint = () => process.env.DYNAMODB_ENDPOINT as string;
const creds = { accessKeyId: 'local', secretAccessKey: 'local' };

/** A cursor over the table's stream: each `next()` returns the records written since the last call. */
export class StreamReader {
  private readonly streams = new DynamoDBStreamsClient({
    endpoint: endpoint(),
    region: 'us-east-1',
    credentials: creds,
  });
  private readonly iterators = new Map<string, string | undefined>();
  private streamArn: string | undefined;

  constructor(private readonly tableName = process.env.TABLE_NAME as string) {}

  private async arn(): Promise<string> {
    if (this.streamArn) return this.streamArn;
    const ddb = new DynamoDBClient({ endpoint: endpoint(), region: 'us-east-1', credentials: creds });
    const t = await ddb.send(new DescribeTableCommand({ TableName: this.tableName }));
    ddb.destroy();
    this.streamArn = t.Table?.LatestStreamArn;
    if (!this.streamArn) throw new Error(`table ${this.tableName} has no stream`);
    return this.streamArn;
  }

  /** Skips everything written so far. */
  async skipToEnd(): Promise<void> {
    await this.next();
  }

  async next(): Promise<DynamoDBRecord[]> {
    const StreamArn = await this.arn();
    const desc = await this.streams.send(new DescribeStreamCommand({ StreamArn }));
    const out: DynamoDBRecord[] = [];
    for (const shard of desc.StreamDescription?.Shards ?? []) {
      const id = shard.ShardId as string;
      let iterator = this.iterators.get(id);
      if (!this.iterators.has(id)) {
        const it = await this.streams.send(
          new GetShardIteratorCommand({ StreamArn, ShardId: id, ShardIteratorType: 'TRIM_HORIZON' }),
        );
        iterator = it.ShardIterator;
      }
      while (iterator) {
        const page = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
        out.push(...((page.Records ?? []) as DynamoDBRecord[]));
        iterator = page.NextShardIterator;
        if (!page.Records?.length) break;
      }
      this.iterators.set(id, iterator);
    }
    return out;
  }
}

export const asEvent = (Records: DynamoDBRecord[]): DynamoDBStreamEvent => ({ Records });

/**
 * Feeds the consumer (all its processors, as Lambda would) the records written since the last call
 * whose partition key starts with `pkPrefix`, `deliveries` times (at-least-once delivery), and
 * expects none to fail. Returns how many records there were. `consumer`: the processors of another
 * consumer (e.g. the outbox's, functions/streams/outbox.ts).
 */
export async function consumeNew(
  reader: StreamReader,
  pkPrefix: string,
  deliveries = 1,
  consumer: ChangeProcessor[] = processors,
): Promise<number> {
  const records = (await reader.next()).filter((r) => r.dynamodb?.Keys?.pk?.S?.startsWith(pkPrefix));
  for (let i = 0; i < deliveries; i++) {
    const res = await consume(asEvent(records), makeContext(), consumer);
    if (res.batchItemFailures.length > 0) throw new Error(`stream records failed: ${JSON.stringify(res)}`);
  }
  return records.length;
}

/**
 * Feeds the consumer (all its processors, as Lambda would) every record written since the reader's
 * last call, once, and expects none to fail. Returns the records.
 */
export async function consumeAll(reader: StreamReader): Promise<DynamoDBRecord[]> {
  const records = await reader.next();
  const res = await consume(asEvent(records), makeContext(), processors);
  if (res.batchItemFailures.length > 0) throw new Error(`stream records failed: ${JSON.stringify(res)}`);
  return records;
}

/**
 * The outbox consumer's half (functions/streams/outbox.ts): the records written since the reader's
 * last call that its event filter lets through (outbox messages that became ready), delivered
 * `deliveries` times; none may fail. Returns how many there were.
 */
export async function deliverOutbox(reader: StreamReader, deliveries = 1): Promise<number> {
  const ready = (await reader.next()).filter(
    (r) => r.dynamodb?.Keys?.pk?.S?.startsWith('OUTBOX#') && toChange(r).newImage?.state === 'ready',
  );
  for (let i = 0; i < deliveries; i++) {
    const res = await consume(asEvent(ready), makeContext(), outboxProcessors, 'outbox');
    if (res.batchItemFailures.length > 0) throw new Error(`outbox records failed: ${JSON.stringify(res)}`);
  }
  return ready.length;
}

/**
 * The DynamoDB commands `work` sends, each as `<Command> <partition kind>` (the partition key up to
 * its first `#`, and the index when one is read), in order.
 */
export async function commandsOf(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const stop = watchCalls((operation, input) => {
    const { Key, Item, IndexName } = input as {
      Key?: { pk?: string };
      Item?: { pk?: string };
      IndexName?: string;
    };
    const pk = String(Key?.pk ?? Item?.pk ?? '');
    seen.push(`${operation} ${pk.split('#')[0]}${IndexName ? ` ${IndexName}` : ''}`);
  });
  try {
    await work();
  } finally {
    stop();
  }
  return seen;
}

/** The commands measured since `startMeasuring()`, sorted: for calls whose order is not the point. */
export const sortedCommands = (): string[] =>
  measured()
    .operations.map((o) => o.command)
    .sort();
