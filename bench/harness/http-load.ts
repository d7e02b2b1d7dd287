/**
 * Part 4: throughput and latency over HTTP through the local stack (serverless offline, stage
 * `local`, on the benchmark's own DynamoDB Local and free loopback ports), under a bounded load:
 * autocannon with a fixed number of connections for a fixed duration, loopback only.
 *
 * The stream consumer inside serverless offline would otherwise replay the whole seeded history
 * (which the seeding step already indexed); its checkpoint is set to the stream's current end, as
 * a deployed consumer that is up to date would be.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import autocannon from 'autocannon';
import { startOffline } from '#scripts/local/offline.ts';
import { freePort } from '#scripts/local/ports.ts';
import type { Environment } from './env.ts';
import { ROOT } from './measure.ts';

export interface HttpTarget {
  name: string;
  path: string;
  /** bearer token, for authenticated routes */
  token?: string;
  headers?: Record<string, string>;
}

export interface HttpResult {
  name: string;
  path: string;
  connections: number;
  durationSeconds: number;
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

const creds = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Moves serverless-offline-dynamodb-streams' checkpoint of this table's stream to its end. */
async function checkpointStreamAtEnd(env: Environment, stage: string): Promise<void> {
  const ddb = new DynamoDBClient({ endpoint: env.dynamoEndpoint, region: 'us-east-1', credentials: creds });
  const streams = new DynamoDBStreamsClient({
    endpoint: env.dynamoEndpoint,
    region: 'us-east-1',
    credentials: creds,
  });
  try {
    const arn = (await ddb.send(new DescribeTableCommand({ TableName: env.table }))).Table?.LatestStreamArn;
    if (!arn) return;
    const desc = await streams.send(new DescribeStreamCommand({ StreamArn: arn }));
    const file = path.join(ROOT, '.local-data', `streams-checkpoint-${stage}.json`);
    const state: Record<string, string> = existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>)
      : {};
    for (const shard of desc.StreamDescription?.Shards ?? []) {
      let iterator = (
        await streams.send(
          new GetShardIteratorCommand({
            StreamArn: arn,
            ShardId: shard.ShardId,
            ShardIteratorType: 'TRIM_HORIZON',
          }),
        )
      ).ShardIterator;
      let last: string | undefined;
      while (iterator) {
        const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
        const records = page.Records ?? [];
        if (records.length === 0) break;
        last = records.at(-1)?.dynamodb?.SequenceNumber ?? last;
        iterator = page.NextShardIterator;
      }
      if (last) state[`${arn}::${shard.ShardId}`] = last;
    }
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(state, null, 2));
  } finally {
    ddb.destroy();
    streams.destroy();
  }
}

export async function measureHttp(
  env: Environment,
  targets: HttpTarget[],
  options: { connections: number; durationSeconds: number; stage: string },
  log: (m: string) => void,
  /** more measurements on the running stack (its base URL), after the targets */
  whileUp?: (url: string) => Promise<void>,
): Promise<{ results: HttpResult[]; missing: string[] }> {
  await checkpointStreamAtEnd(env, options.stage);
  log('starting serverless offline (bundles every function first)...');
  const offline = await startOffline({
    stage: options.stage,
    port: await freePort(),
    lambdaPort: await freePort(),
    dynamodbPort: env.dynamoPort,
    sesPort: env.sesPort,
    s3Port: env.s3Port,
  });
  const results: HttpResult[] = [];
  const missing: string[] = [];
  try {
    for (const target of targets) {
      const url = `${offline.url}${target.path}`;
      const headers: Record<string, string> = { ...target.headers };
      if (target.token) headers.authorization = `Bearer ${target.token}`;
      const probe = await fetch(url, { headers });
      await probe.arrayBuffer();
      if (probe.status === 404) {
        missing.push(target.name);
        log(`  ${target.name}: no such route yet (404), skipped`);
        continue;
      }
      if (probe.status !== 200) throw new Error(`${target.name}: ${target.path} answered ${probe.status}`);
      // Warm up at the same concurrency until every worker serverless offline starts for this
      // function has loaded it (the first call of each takes seconds), then measure.
      const warm = await autocannon({
        url,
        headers,
        connections: options.connections,
        amount: options.connections * 20,
        timeout: 60,
      });
      if (warm.errors > 0 || warm.non2xx > 0) {
        throw new Error(
          `${target.name}: ${warm.errors} errors and ${warm.non2xx} non-2xx answers in the warm-up`,
        );
      }
      const r = await autocannon({
        url,
        headers,
        connections: options.connections,
        duration: options.durationSeconds,
        timeout: 10,
      });
      if (r.requests.total === 0) throw new Error(`${target.name}: no request completed under load`);
      if (r.errors > 0 || r.non2xx > 0) {
        throw new Error(`${target.name}: ${r.errors} errors and ${r.non2xx} non-2xx answers under load`);
      }
      const result: HttpResult = {
        name: target.name,
        path: target.path,
        connections: options.connections,
        durationSeconds: options.durationSeconds,
        requests: r.requests.total,
        requestsPerSecond: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        errors: r.errors,
        non2xx: r.non2xx,
      };
      results.push(result);
      log(
        `  ${target.name}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`,
      );
    }
    await whileUp?.(offline.url);
  } finally {
    await offline.stop();
  }
  return { results, missing };
}
