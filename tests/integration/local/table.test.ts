/**
 * A table kept from an earlier local run (npm start with persisted data) gets the indexes
 * serverless.yml added since (e.g. the keys-only gsi1keys and gsi4keys of the bounded skip).
 */
import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { expect, it } from 'vitest';
import { localClient, startDynamoDbLocal } from '#scripts/local/dynamodb.ts';
import { freePort } from '#scripts/local/ports.ts';
import { createTableInput, ensureTable } from '#scripts/local/table.ts';

it('adds the indexes an older local table lacks, and leaves the others', async () => {
  // A DynamoDB Local of its own: the shared one, busy with every other test file's tables, was
  // seen to build an index on an empty table for over a minute.
  const dynamo = await startDynamoDbLocal({ port: await freePort(), quiet: true });
  const client = localClient(dynamo.endpoint);
  try {
    const name = `old-${Date.now().toString(36)}`;
    const input = createTableInput(name);
    const wanted = (input.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName).sort();
    const older = (input.GlobalSecondaryIndexes ?? []).filter((i) => !i.IndexName?.endsWith('keys'));
    await client.send(new CreateTableCommand({ ...input, GlobalSecondaryIndexes: older }));
    expect(await ensureTable(client, name)).toBe(false);
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    const indexes = Table?.GlobalSecondaryIndexes ?? [];
    expect(indexes.map((i) => i.IndexName).sort()).toEqual(wanted);
    expect(wanted).toContain('gsi1keys');
    const keys = indexes.find((i) => i.IndexName === 'gsi4keys');
    expect(keys?.Projection).toEqual({ ProjectionType: 'INCLUDE', NonKeyAttributes: ['hidden'] });
    expect(keys?.KeySchema?.map((k) => k.AttributeName)).toEqual(['gsi4pk', 'gsi4sk']);
  } finally {
    client.destroy();
    await dynamo.stop();
  }
  // DynamoDB Local builds one index at a time, and ensureTable waits up to 60 s for each: on a
  // loaded machine two of them outlast the tier's 30 s default
}, 150_000);
