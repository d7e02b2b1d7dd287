import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, expect, inject } from 'vitest';
import { localClient } from '#scripts/local/dynamodb.ts';
import { ensureTable } from '#scripts/local/table.ts';
import { pointAtEmulators } from '#tests/setup/emulator-env.ts';

// Each test file gets its own table (same definition as serverless.yml), so files never see each
// other's data and can run in parallel.
pointAtEmulators();
process.env.TABLE_NAME = `it-${randomBytes(6).toString('hex')}`;
process.env.PASSWORD_HASH_MEMORY_KIB = process.env.PASSWORD_HASH_MEMORY_KIB ?? '256';
process.env.PASSWORD_HASH_PASSES = process.env.PASSWORD_HASH_PASSES ?? '1';
// every test calls from 127.0.0.1: only the sending-caps test keeps the per-IP and global caps low
process.env.MAIL_CAP_PER_IP_HOURLY = '1000000';
process.env.MAIL_CAP_GLOBAL_HOURLY = '1000000';

/**
 * Only a file that reads the table's stream (tests/helpers/stream.ts, or the outbox through
 * `sendQueuedMail`) gets a table with a stream. DynamoDB Local looks up the stream's shards among
 * every stream it has ever held at each write, so every stream record written slows every later
 * write of the tier: the same file took 46 s first and 171-190 s after one run of itself.
 */
const readsStream = (testFile: string | undefined): boolean =>
  testFile === undefined || /helpers\/stream\.ts|sendQueuedMail/.test(readFileSync(testFile, 'utf8'));

const table = process.env.TABLE_NAME;
const client = localClient(inject('dynamoEndpoint'));
await ensureTable(client, table, { stream: readsStream(expect.getState().testPath) });
client.destroy();

// The file's table goes when the file is done: DynamoDB Local holds nothing a later file pays for.
afterAll(async () => {
  const dropping = localClient(inject('dynamoEndpoint'));
  try {
    await dropping.send(new DeleteTableCommand({ TableName: table }));
  } finally {
    dropping.destroy();
  }
});
