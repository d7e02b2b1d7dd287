/**
 * Creates DynamoDB Local's table from the one definition in serverless.yml (resources.Table), so
 * the local stack, the tests and AWS share a single schema.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { parseDocument, type Tags } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// CloudFormation short-form tags; their values are irrelevant to the table's shape.
const cfnTags: Tags = ['GetAtt', 'Join', 'Ref', 'Sub', 'If', 'Select', 'Split', 'ImportValue'].flatMap(
  (name) =>
    (['scalar', 'seq', 'map'] as const).map((_kind) => ({
      tag: `!${name}`,
      identify: () => false,
      resolve: (value: unknown) => value,
      collection: _kind === 'scalar' ? undefined : _kind,
    })) as Tags,
);

interface CfnTable {
  AttributeDefinitions: CreateTableCommandInput['AttributeDefinitions'];
  KeySchema: CreateTableCommandInput['KeySchema'];
  GlobalSecondaryIndexes?: CreateTableCommandInput['GlobalSecondaryIndexes'];
  BillingMode?: string;
  TimeToLiveSpecification?: { AttributeName: string; Enabled: boolean };
  StreamSpecification?: { StreamViewType: 'NEW_AND_OLD_IMAGES' | 'NEW_IMAGE' | 'OLD_IMAGE' | 'KEYS_ONLY' };
}

/** The table's properties as declared in serverless.yml. */
export function tableDefinition(): CfnTable {
  const text = readFileSync(path.join(ROOT, 'serverless.yml'), 'utf8');
  const doc = parseDocument(text, { customTags: cfnTags, strict: false });
  // `resources` is a map, or a list of maps and ${file(...)} includes (the table is inline).
  const resources = doc.get('resources') as { items?: unknown[] } | undefined;
  const where = Array.isArray(resources?.items)
    ? resources.items.map((_, i) => ['resources', i, 'Resources', 'Table', 'Properties'])
    : [['resources', 'Resources', 'Table', 'Properties']];
  const props = where.map((p) => doc.getIn(p)).find(Boolean) as { toJSON(): CfnTable } | undefined;
  if (!props) throw new Error('serverless.yml has no resources Table with Properties');
  return props.toJSON();
}

/** The CreateTable input for `tableName`, derived from serverless.yml. */
export function createTableInput(tableName: string, { stream = true } = {}): CreateTableCommandInput {
  const def = tableDefinition();
  return {
    TableName: tableName,
    AttributeDefinitions: def.AttributeDefinitions,
    KeySchema: def.KeySchema,
    GlobalSecondaryIndexes: def.GlobalSecondaryIndexes,
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification:
      def.StreamSpecification && stream
        ? { StreamEnabled: true, StreamViewType: def.StreamSpecification.StreamViewType }
        : undefined,
  };
}

/** Waits (polling DescribeTable, at most 60 s) until the table's index `name` is ACTIVE. */
async function untilIndexActive(client: DynamoDBClient, tableName: string, name: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const status = Table?.GlobalSecondaryIndexes?.find((i) => i.IndexName === name)?.IndexStatus;
    if (status === 'ACTIVE') return;
    if (Date.now() > deadline) throw new Error(`index ${name} of ${tableName} is still ${status} after 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Creates the table when it does not exist yet; returns true when it created it. A table kept from
 * an earlier run (`npm start` with persisted data) gets the indexes added since, one at a time.
 * `stream: false` creates it without its stream (a test file that never reads the stream).
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
  options: { stream?: boolean } = {},
): Promise<boolean> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const have = new Set((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
    const input = createTableInput(tableName);
    for (const index of input.GlobalSecondaryIndexes ?? []) {
      if (have.has(index.IndexName)) continue;
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: input.AttributeDefinitions,
          GlobalSecondaryIndexUpdates: [
            {
              Create: {
                IndexName: index.IndexName,
                KeySchema: index.KeySchema,
                Projection: index.Projection,
              },
            },
          ],
        }),
      );
      // one index at a time: the next may be created only once this one is active
      await untilIndexActive(client, tableName, index.IndexName as string);
    }
    return false;
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
  }
  await client.send(new CreateTableCommand(createTableInput(tableName, options)));
  const ttl = tableDefinition().TimeToLiveSpecification;
  if (ttl?.Enabled) {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: ttl.AttributeName, Enabled: true },
      }),
    );
  }
  return true;
}
