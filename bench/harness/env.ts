/**
 * The benchmark's own emulators: a DynamoDB Local, the SES and S3 emulators and the Open Library
 * stand-in on free ports, the table from serverless.yml, and the environment the handlers read
 * their configuration from. Call `planEnvironment` before importing any project module
 * (lib/config.ts reads env at import).
 */
import { UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { localClient, startDynamoDbLocal } from '#scripts/local/dynamodb.ts';
import { startIsbnStandin } from '#scripts/local/isbn-standin.ts';
import { freePort } from '#scripts/local/ports.ts';
import { startS3 } from '#scripts/local/s3.ts';
import { startSes } from '#scripts/local/ses.ts';
import { ensureTable, tableDefinition } from '#scripts/local/table.ts';

/** The stage the handlers run as: `local` reads no SSM and matches `serverless offline --stage local`. */
export const STAGE = 'local';
export const TABLE = `campus-books-${STAGE}`;

export interface Environment {
  dynamoEndpoint: string;
  /** DynamoDB Local's Java process */
  dynamoPid: number | undefined;
  dynamoPort: number;
  sesPort: number;
  /** the S3 emulator's: serverless offline's photo URLs and uploads point at it */
  s3Port: number;
  table: string;
  /** turns the table's stream on (from then on every write is a stream record) */
  enableStream: () => Promise<void>;
  stop: () => Promise<void>;
}

export interface PlannedEnvironment {
  dynamoPort: number;
  sesPort: number;
  s3Port: number;
  /** the Open Library stand-in of the ISBN lookup */
  isbnPort: number;
}

const PHOTOS_BUCKET = 'campus-books-bench-photos';

/**
 * Picks the emulators' ports and sets the environment the handlers' configuration is read from.
 * Must run before any project module is imported.
 */
export async function planEnvironment(): Promise<PlannedEnvironment> {
  const dynamoPort = await freePort();
  const sesPort = await freePort();
  const s3Port = await freePort();
  const isbnPort = await freePort();
  Object.assign(process.env, {
    STAGE,
    TABLE_NAME: TABLE,
    DYNAMODB_ENDPOINT: `http://127.0.0.1:${dynamoPort}`,
    SES_ENDPOINT: `http://127.0.0.1:${sesPort}`,
    // the photo routes (addPhoto, removePhoto) talk to an S3 emulator
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    PHOTOS_BUCKET,
    PHOTOS_PUBLIC_URL: `http://127.0.0.1:${s3Port}/${PHOTOS_BUCKET}`,
    // the ISBN lookup asks the Open Library stand-in (scripts/local/isbn-standin.ts)
    ISBN_LOOKUP_URL: `http://127.0.0.1:${isbnPort}`,
    AWS_REGION: 'us-east-1',
    // The handlers' per-request logs would go to this terminal and add I/O noise to the timings.
    LOG_LEVEL: 'ERROR',
  });
  return { dynamoPort, sesPort, s3Port, isbnPort };
}

/**
 * Starts DynamoDB Local, the SES and the S3 emulators on the planned ports, and creates the table
 * WITHOUT its stream: DynamoDB Local slows every write down with every stream record it holds
 * (tests/setup/integration-env.ts), which held seeding 10,000 books to a few a second. The HTTP
 * phase, whose serverless offline runs the stream consumer, turns it on first (`enableStream`).
 */
export async function startEnvironment(plan: PlannedEnvironment): Promise<Environment> {
  const dynamo = await startDynamoDbLocal({ port: plan.dynamoPort, quiet: true });
  const ses = await startSes(plan.sesPort);
  const s3 = await startS3({ port: plan.s3Port, bucket: PHOTOS_BUCKET, corsOrigins: [] });
  const isbn = await startIsbnStandin(plan.isbnPort);
  const client = localClient(dynamo.endpoint);
  await ensureTable(client, TABLE, { stream: false });
  client.destroy();
  return {
    dynamoEndpoint: dynamo.endpoint,
    dynamoPid: dynamo.pid,
    dynamoPort: plan.dynamoPort,
    sesPort: plan.sesPort,
    s3Port: plan.s3Port,
    table: TABLE,
    enableStream: async () => {
      const streamClient = localClient(dynamo.endpoint);
      const { StreamViewType } = tableDefinition().StreamSpecification ?? {};
      await streamClient.send(
        new UpdateTableCommand({
          TableName: TABLE,
          StreamSpecification: { StreamEnabled: true, StreamViewType },
        }),
      );
      streamClient.destroy();
    },
    stop: async () => {
      await ses.stop().catch(() => undefined);
      await s3.stop().catch(() => undefined);
      await isbn.stop().catch(() => undefined);
      await dynamo.stop();
    },
  };
}

/** A floor's client, and how to close its connections. */
export interface FloorClient {
  client: DynamoDBDocumentClient;
  destroy: () => void;
}

/**
 * The floor's client: the SDK's DocumentClient built as the service builds its own
 * (lib/table/client.ts `dynamoClient`, `documentClient`: same settings, retries and marshalling) on
 * the same endpoint, without the service's middleware; `metered` puts the service's meter on it
 * (lib/table/metrics.ts), to count its calls and capacity (never while timing).
 */
export async function floorClient(endpoint: string, metered: boolean): Promise<FloorClient> {
  const { documentClient, dynamoClient } = await import('#lib/table/client.ts');
  const { meterOn } = await import('#lib/table/metrics.ts');
  const base = dynamoClient(endpoint);
  const client = documentClient(base);
  if (metered) meterOn(client.middlewareStack);
  return { client, destroy: () => base.destroy() };
}

/** The password hashing the run used, from the configuration the handlers read (after planEnvironment). */
export async function passwordHashSetting(): Promise<string> {
  const { config } = await import('#lib/config.ts');
  return `Argon2id, ${config.PASSWORD_HASH_MEMORY_KIB} KiB, ${config.PASSWORD_HASH_PASSES} passes`;
}
