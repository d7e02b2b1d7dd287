/**
 * A table kept from an earlier local run (npm start with persisted data) gets the indexes
 * serverless.yml added since (e.g. the keys-only gsi1keys and gsi4keys of the bounded skip).
 */
import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { expect, inject, it } from 'vitest';
import { localClient } from '#scripts/local/dynamodb.ts';
import { createTableInput, ensureTable } from '#scripts/local/table.ts';

it('adds the indexes an older local table lacks, and leaves the others', async () => {
  const client = localClient(inject('dynamoEndpoint'));
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
  }
  // DynamoDB Local builds one index at a time, and ensureTable waits up to 60 s for each: on a
  // loaded machine two of them outlast the tier's 30 s default
}, 150_000);
