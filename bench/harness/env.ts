/**
 * The benchmark's own emulators: a DynamoDB Local and an SES emulator on free ports, the table
 * from serverless.yml, and the environment the handlers read their configuration from. Call
 * `startEnvironment` before importing any project module (lib/config.ts reads env at import).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { localClient, startDynamoDbLocal } from '../../scripts/local/dynamodb.ts';
import { freePort } from '../../scripts/local/ports.ts';
import { startSes } from '../../scripts/local/ses.ts';
import { ensureTable } from '../../scripts/local/table.ts';

/** The stage the handlers run as: `local` reads no SSM and matches `serverless offline --stage local`. */
export const STAGE = 'local';
export const TABLE = `campus-books-${STAGE}`;

export interface Environment {
  dynamoEndpoint: string;
  dynamoPort: number;
  sesPort: number;
  table: string;
  stop: () => Promise<void>;
}

export async function startEnvironment(options: { bcryptCost: number }): Promise<Environment> {
  const dynamoPort = await freePort();
  const dynamo = await startDynamoDbLocal({ port: dynamoPort, quiet: true });
  const sesPort = await freePort();
  const ses = await startSes(sesPort);
  const client = localClient(dynamo.endpoint);
  await ensureTable(client, TABLE);
  client.destroy();
  Object.assign(process.env, {
    STAGE,
    TABLE_NAME: TABLE,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    SES_ENDPOINT: ses.url,
    AWS_REGION: 'us-east-1',
    BCRYPT_COST: String(options.bcryptCost),
    // The handlers' per-request logs would go to this terminal and add I/O noise to the timings.
    LOG_LEVEL: 'ERROR',
    POWERTOOLS_DEV: '',
  });
  return {
    dynamoEndpoint: dynamo.endpoint,
    dynamoPort,
    sesPort,
    table: TABLE,
    stop: async () => {
      await ses.stop().catch(() => undefined);
      await dynamo.stop();
    },
  };
}

/**
 * A plain DocumentClient for the floor: the same endpoint, region, credentials, retries and
 * marshalling as lib/db/client.ts, but no middlewares. `metered` adds the project's meter, for
 * counting the floor's calls and capacity (never while timing).
 */
export async function floorClient(endpoint: string, metered: boolean): Promise<DynamoDBDocumentClient> {
  const base = new DynamoDBClient({
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 4,
  });
  if (metered) {
    const { meterMiddleware } = await import('../../lib/db/metrics.ts');
    base.middlewareStack.add(meterMiddleware, { step: 'initialize', name: 'benchFloorMeter' });
  }
  return DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}
