/**
 * The stream consumer's event source settings: partial batch failures, bisecting, bounded retries
 * and a failure destination. The emulated stream ignores them, so only this test notices if one is
 * deleted or loosened (the consumer would then retry a poison record forever or drop it silently).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** YAML as plain data; CloudFormation tags are read as their plain values (`!GetAtt A.B` -> 'A.B'). */
const readYaml = (file: string) =>
  parseDocument(readFileSync(join(ROOT, file), 'utf8'), { logLevel: 'silent' }).toJS() as Record<
    string,
    // biome-ignore lint/suspicious/noExplicitAny: free-form serverless configuration
    any
  >;

const service = readYaml('serverless.yml');
const functions = readYaml('functions/streams/functions.yml');
const events: Array<{ stream?: Record<string, unknown> }> = functions.streamsConsumer?.events ?? [];
const streams = events.flatMap((e) => (e.stream ? [e.stream] : []));

describe('the stream consumer (functions/streams/functions.yml)', () => {
  it('is included by serverless.yml and handled by functions/streams/consumer.ts', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a serverless include, not a template
    expect(service.functions).toContain('${file(./functions/streams/functions.yml)}');
    expect(functions.streamsConsumer?.handler).toBe('functions/streams/consumer.handler');
  });

  it('reads the table stream once, reporting failed records one by one and bisecting a failing batch', () => {
    expect(streams).toHaveLength(1);
    expect(streams[0]).toMatchObject({
      type: 'dynamodb',
      arn: 'Table.StreamArn',
      functionResponseType: 'ReportBatchItemFailures',
      bisectBatchOnFunctionError: true,
    });
  });

  it('retries a failing record a bounded number of times, for a bounded age', () => {
    const { maximumRetryAttempts, maximumRecordAgeInSeconds } = streams[0] ?? {};
    // -1 (the default when missing) means forever: a poison record would block its shard.
    expect(Number.isInteger(maximumRetryAttempts)).toBe(true);
    expect(maximumRetryAttempts).toBeGreaterThanOrEqual(1);
    expect(maximumRetryAttempts).toBeLessThanOrEqual(10);
    expect(Number.isInteger(maximumRecordAgeInSeconds)).toBe(true);
    expect(maximumRecordAgeInSeconds).toBeGreaterThanOrEqual(60);
    expect(maximumRecordAgeInSeconds).toBeLessThanOrEqual(7 * 24 * 3600);
  });

  it('sends what still fails to an SQS queue of this stack that the function may write to', () => {
    const onFailure = (streams[0]?.destinations as { onFailure?: { arn?: unknown; type?: unknown } })
      ?.onFailure;
    expect(onFailure).toEqual({ arn: 'StreamFailureQueue.Arn', type: 'sqs' });
    // `resources` is a list: infra/*.yml includes and the inline block with the table and queue.
    const inline = (service.resources as Array<{ Resources?: Record<string, { Type?: string }> }>).find(
      (r) => r.Resources?.Table,
    );
    expect(inline?.Resources?.StreamFailureQueue?.Type).toBe('AWS::SQS::Queue');
    // The consumer runs as its own role (infra/iam.yml), which may send to that queue.
    expect(functions.streamsConsumer?.role).toBe('StreamConsumerRole');
    const role = readYaml('infra/iam.yml').Resources?.StreamConsumerRole;
    const statements: Array<{ Effect?: string; Action?: unknown; Resource?: unknown[] }> =
      role?.Properties?.Policies?.flatMap(
        (p: { PolicyDocument: { Statement: unknown[] } }) => p.PolicyDocument.Statement,
      ) ?? [];
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'sqs:SendMessage',
        Resource: ['StreamFailureQueue.Arn'],
      }),
    );
  });
});
