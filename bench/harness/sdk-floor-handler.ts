/**
 * The SDK floor of a cold-init case (bench/harness/sdk-floor.ts): bundled and minified like a
 * function, imported in a fresh process. It loads what every function of the service loads
 * before its own code (the SDK's DynamoDB client and DocumentClient, Powertools Logger, its
 * middleware and Metrics, and, on a deployed stage, the function's secrets, read in parallel at
 * import as lib/config.ts does), and its handler builds the same client with the same settings (lib/aws/client-options.ts)
 * and sends the DynamoDB calls the case's first request makes (recorded from the case's floor, in
 * the same waves of parallel calls). Nothing else: what a case's cold init costs beyond this is the
 * service's own code.
 */
import { readFileSync } from 'node:fs';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { DEPLOYED_DYNAMODB_REQUEST_TIMEOUT_MS, dynamoClientSettings } from '#lib/aws/client-options.ts';
import { readSecrets } from '#lib/aws/secrets.ts';
// the service's own list of the DocumentClient's commands (re-exports of @aws-sdk/lib-dynamodb)
import * as commands from '#lib/table/commands.ts';

/** One recorded call: DynamoDB's operation name and the DocumentClient's input. */
export interface RecordedCall {
  operation: string;
  input: Record<string, unknown>;
}

/** Each DynamoDB operation a case may send, and the command that sends it. */
const COMMANDS = {
  BatchGetItem: commands.BatchGetCommand,
  BatchWriteItem: commands.BatchWriteCommand,
  DeleteItem: commands.DeleteCommand,
  GetItem: commands.GetCommand,
  PutItem: commands.PutCommand,
  Query: commands.QueryCommand,
  TransactGetItems: commands.TransactGetCommand,
  TransactWriteItems: commands.TransactWriteCommand,
  UpdateItem: commands.UpdateCommand,
} as const;

const env = process.env;
const logger = new Logger({ serviceName: 'campus-books', persistentKeys: { stage: env.STAGE ?? '' } });
const metrics = new Metrics({ namespace: 'CampusBooks', serviceName: 'campus-books' });
// the Logger middleware every HTTP function builds at import (lib/http/stack.ts), so the floor
// loads every Powertools module a case loads (issue 30's definition of the floor)
export const logContext = injectLambdaContext(logger, { resetKeys: true, logEvent: false });

// the function's secrets, as lib/config.ts reads them on a deployed stage
const ids = Object.fromEntries(
  Object.entries(env)
    .filter(([k, v]) => k.endsWith('_SECRET_ID') && v)
    .map(([k, v]) => [k, v as string]),
);
if (Object.keys(ids).length > 0) {
  const endpoint = env.AWS_ENDPOINT_URL_SECRETS_MANAGER;
  await readSecrets(ids, {
    region: env.AWS_REGION ?? 'us-east-1',
    ...(endpoint ? { endpoint } : {}),
    ...(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY } }
      : {}),
  });
}

const waves = JSON.parse(readFileSync(env.SDK_FLOOR_CALLS ?? '', 'utf8')) as RecordedCall[][];

let client: DynamoDBDocumentClient | undefined;

export const handler = async (): Promise<{ statusCode: number }> => {
  if (!client) {
    const { http, ...settings } = dynamoClientSettings({
      region: env.AWS_REGION ?? 'us-east-1',
      ...(env.DYNAMODB_ENDPOINT ? { endpoint: env.DYNAMODB_ENDPOINT } : {}),
      requestTimeoutMs: Number(env.DYNAMODB_REQUEST_TIMEOUT_MS ?? DEPLOYED_DYNAMODB_REQUEST_TIMEOUT_MS),
    });
    client = DynamoDBDocumentClient.from(
      new DynamoDBClient({ ...settings, requestHandler: new NodeHttpHandler(http) }),
      { marshallOptions: { removeUndefinedValues: true } },
    );
  }
  const c = client;
  for (const wave of waves) {
    await Promise.all(
      wave.map(async ({ operation, input }) => {
        const Command = COMMANDS[operation as keyof typeof COMMANDS];
        if (!Command) throw new Error(`the SDK floor cannot send ${operation}`);
        // a write the recording already made may be refused now (a condition): still a round trip
        await c.send(new Command(input as never) as commands.QueryCommand).catch((err: Error) => {
          if (!/ConditionalCheckFailed|TransactionCanceled/.test(err.name)) throw err;
        });
      }),
    );
  }
  logger.debug('sdk floor', { calls: waves.flat().length });
  metrics.clearMetrics();
  return { statusCode: 200 };
};
