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
