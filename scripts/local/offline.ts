import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from './ports.ts';
import { startChild, stopChild } from './processes.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunningOffline {
  url: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * Runs `serverless offline start` (HTTP API, the stream consumer, schedules) for `stage`, with the
 * emulators' ports in its environment. Resolves when the API answers.
 */
export async function startOffline(options: {
  stage: string;
  port: number;
  lambdaPort: number;
  dynamodbPort: number;
  sesPort: number;
  /** the S3 emulator (photos); stage params default to 4569 */
  s3Port?: number;
  env?: Record<string, string>;
  log?: (line: string) => void;
}): Promise<RunningOffline> {
  const require = createRequire(import.meta.url);
  const bin = path.join(path.dirname(require.resolve('serverless/package.json')), 'bin', 'serverless.js');
  const child = startChild(process.execPath, [bin, 'offline', 'start', '--stage', options.stage], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...options.env,
      PORT: String(options.port),
      LAMBDA_PORT: String(options.lambdaPort),
      DYNAMODB_PORT: String(options.dynamodbPort),
      SES_PORT: String(options.sesPort),
      ...(options.s3Port ? { S3_PORT: String(options.s3Port) } : {}),
      SLS_TELEMETRY_DISABLED: '1',
      SLS_NOTIFICATIONS_MODE: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const onData = (buf: Buffer) => {
    for (const line of buf.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      output.push(line);
      if (output.length > 200) output.shift();
      options.log?.(line);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exitedEarly = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(
        new Error(
          `serverless offline exited during start-up (code ${code}):\n${output.slice(-30).join('\n')}`,
        ),
      ),
    ),
  );
  exitedEarly.catch(() => undefined);
  const url = `http://127.0.0.1:${options.port}`;
  try {
    await Promise.race([
      waitFor('serverless offline', async () => (await fetch(`${url}/api/ping`)).status === 401, 360_000),
      exitedEarly,
    ]);
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return { url, child, stop: () => stopChild(child, 8000) };
}
