/**
 * Nothing expensive at module load (issue 19): loading the modules every function imports builds
 * no AWS SDK client and opens no connection; the DynamoDB client is built on first use, once per
 * container. Counted with `v8.queryObjects`, which counts the live instances of a class in this
 * process's heap: nothing is wrapped or replaced, every module and the SDK are the real ones.
 */
import { queryObjects } from 'node:v8';
import { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { GetCommand } from '#lib/table/commands.ts';

// Nothing listens there: a call fails at once, with the emulators' credentials (no credential chain).
process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:9';

const live = () => ({
  // the service's DocumentClient (it keeps the DynamoDBClient's configuration and stack, not the client)
  dynamodb: queryObjects(DynamoDBDocumentClient, { format: 'count' }),
  ses: queryObjects(SESv2Client, { format: 'count' }),
  s3: queryObjects(S3Client, { format: 'count' }),
});
/**
 * Before any project module loads. Not zero: a package's aggregated class (`S3 extends S3Client`,
 * `DynamoDBDocument extends DynamoDBDocumentClient`) has the client's prototype in its own
 * prototype's chain, so that prototype object counts.
 */
const before = live();

// each count walks the whole heap (v8.queryObjects): seconds on a busy machine
describe('module load', { timeout: 30_000 }, () => {
  it('builds no client when the data, mail, photo store and metrics modules load', async () => {
    await import('#lib/table/client.ts');
    await import('#lib/mail/send.ts');
    await import('#lib/photos/store.ts');
    await import('#lib/metrics.ts');
    expect(live()).toEqual(before);
  });

  it('builds the DynamoDB client on its first call, and only once', async () => {
    const { db, TABLE } = await import('#lib/table/client.ts');
    expect(live()).toEqual(before);
    const read = () => db.send(new GetCommand({ TableName: TABLE, Key: { pk: 'LAZY#1', sk: 'LAZY#1' } }));
    // the unit project has no database: the call fails, but the client exists from then on
    await read().catch(() => undefined);
    expect(live()).toEqual({ ...before, dynamodb: before.dynamodb + 1 });
    await read().catch(() => undefined);
    expect(live()).toEqual({ ...before, dynamodb: before.dynamodb + 1 });
  });
});
