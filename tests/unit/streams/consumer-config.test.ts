/**
 * The stream consumer's event source settings: partial batch failures, bisecting, bounded retries
 * and a failure destination. The emulated stream ignores them, so only this test notices if one is
 * deleted or loosened (the consumer would then retry a poison record forever or drop it silently).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { outboxProcessors } from '#functions/streams/outbox.ts';
import { processors } from '#functions/streams/processors.ts';
import {
  accountDeletionKey,
  auditKey,
  bookKey,
  cartCountKey,
  cartItemKey,
  digestEntryKey,
  digestSentKey,
  emailKey,
  globalStatsShardKey,
  handoverKey,
  type ItemKey,
  idempotencyKey,
  listedBookKey,
  matchKey,
  matchMailKey,
  matchScanKey,
  notificationKey,
  notificationsReadMarkKey,
  orderKey,
  outboxKey,
  photoSlotExpiryKey,
  reportKey,
  reportQueueKey,
  requestKey,
  searchEntryKey,
  suppressionKey,
  throttleKey,
  throttleWindowKey,
  tokenKey,
  userKey,
  userSearchKey,
  userStatsKey,
} from '#lib/db/keys.ts';
import type { StreamChange } from '#lib/streams/types.ts';

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

/** What both readers of the table stream hold to: failed records reported one by one, a failing batch bisected. */
const TABLE_STREAM_READER = {
  type: 'dynamodb',
  arn: 'Table.StreamArn',
  functionResponseType: 'ReportBatchItemFailures',
  bisectBatchOnFunctionError: true,
};

describe('the stream consumer (functions/streams/functions.yml)', () => {
  it('is included by serverless.yml and handled by functions/streams/consumer.ts', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a serverless include, not a template
    expect(service.functions).toContain('${file(./functions/streams/functions.yml)}');
    expect(functions.streamsConsumer?.handler).toBe('functions/streams/consumer.handler');
  });

  it('reads the table stream once, reporting failed records one by one and bisecting a failing batch', () => {
    expect(streams).toHaveLength(1);
    expect(streams[0]).toMatchObject(TABLE_STREAM_READER);
  });

  it("reads each shard at the stage's parallelization factor, within what Lambda allows", () => {
    // Shards x factor must fit the consumer's reserved concurrency: the packaged template's check
    // (tests/package/operations.test.ts) holds that arithmetic; here, the factor is the stage's.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a serverless variable, not a template
    expect(streams[0]?.parallelizationFactor).toBe('${param:consumerParallelization}');
    const factor = Number(service.params?.default?.consumerParallelization);
    expect(Number.isInteger(factor)).toBe(true);
    expect(factor).toBeGreaterThanOrEqual(1);
    expect(factor).toBeLessThanOrEqual(10);
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

/** Lambda's event filtering, for the part of the pattern language serverless.yml uses (exact values and prefixes). */
type Rule = string | { prefix: string };
type Pattern = { dynamodb: { Keys: Record<string, { S: Rule[] }> } };
const matchesPattern = (pattern: Pattern, keys: ItemKey): boolean =>
  Object.entries(pattern.dynamodb.Keys).every(([attribute, { S: rules }]) => {
    const value = (keys as unknown as Record<string, string | undefined>)[attribute];
    return (
      value !== undefined &&
      rules.some((r) => (typeof r === 'string' ? value === r : value.startsWith(r.prefix)))
    );
  });

describe('the consumer event filter (filterPatterns)', () => {
  const patterns = (streams[0]?.filterPatterns ?? []) as Pattern[];
  const passes = (keys: ItemKey) => patterns.some((p) => matchesPattern(p, keys));
  const t = '2026-01-01T00:00:00.000Z';
  // One key of every kind the table holds (lib/db/keys.ts).
  const everyKind: Record<string, ItemKey> = {
    book: bookKey('B1'),
    userProfile: userKey('U1'),
    request: requestKey('U1', 'R1'),
    email: emailKey('a@x.edu'),
    token: tokenKey('h'),
    throttle: throttleKey('login', 'a@x.edu'),
    throttleWindow: throttleWindowKey('login', 'a@x.edu', 1),
    photoSlot: photoSlotExpiryKey(1, 'B1', 'P1'),
    searchEntry: searchEntryKey('T#calc', t, 'B1'),
    listedBook: listedBookKey('LB#C#MTH101', t, 'B1'),
    match: matchKey('U1', 'R1', 'B1'),
    cartCount: cartCountKey('U1'),
    cartItem: cartItemKey('U1', 'B1'),
    order: orderKey('O1'),
    handover: handoverKey('O1', 'U1'),
    idempotency: idempotencyKey('U1', 'k'),
    notification: notificationKey('U1', 'N1'),
    readMark: notificationsReadMarkKey('U1'),
    globalStats: globalStatsShardKey(3),
    userStats: userStatsKey('U1'),
    audit: auditKey(t, 'A1'),
    userSearch: userSearchKey('E', 'a@x.edu', 'U1'),
    matchMail: matchMailKey('U1', 'B1'),
    digestEntry: digestEntryKey('2026-01-01', 'U1', 'B1'),
    digestSent: digestSentKey('U1', '2026-01-01'),
    report: reportKey('B1', 'U1'),
    reportQueue: reportQueueKey(3, 'B1'),
    suppression: suppressionKey('a@x.edu'),
    matchScan: matchScanKey('B1', t),
    accountDeletion: accountDeletionKey('U1'),
    outbox: outboxKey('unlisted.R1.U1'),
  };
  // Images that make every processor's `wants` as wide as it gets (a status change).
  const changes = (keys: ItemKey): StreamChange[] =>
    (['INSERT', 'MODIFY', 'REMOVE'] as const).map((eventName) => ({
      eventName,
      eventId: 'e',
      sequenceNumber: '1',
      keys,
      oldImage: eventName === 'INSERT' ? undefined : { ...keys, status: 0 },
      newImage: eventName === 'REMOVE' ? undefined : { ...keys, status: 1 },
    }));

  it('lets through every record some processor wants', () => {
    const missed = Object.entries(everyKind).flatMap(([kind, keys]) =>
      changes(keys).flatMap((c) =>
        processors
          .filter((p) => p.wants(c) && !passes(keys))
          .map((p) => `${p.name} wants ${kind} (${c.eventName})`),
      ),
    );
    expect(patterns.length).toBeGreaterThan(0);
    // Lambda's default quota: 5 filters per event source mapping (raising it is a support request)
    expect(patterns.length).toBeLessThanOrEqual(5);
    expect(missed).toEqual([]);
  });

  it('keeps out the entries the consumer writes itself, and the other high-volume items', () => {
    for (const kind of [
      'searchEntry',
      'listedBook',
      'match',
      'notification',
      'userSearch',
      'cartItem',
      'throttleWindow',
      'globalStats',
      'audit',
      'handover',
    ])
      expect(passes(everyKind[kind] as ItemKey), kind).toBe(false);
    for (const kind of ['book', 'userProfile', 'request', 'order'])
      expect(passes(everyKind[kind] as ItemKey), kind).toBe(true);
  });
});

describe('the outbox consumer (functions/streams/functions.yml outboxConsumer)', () => {
  const outbox = functions.outboxConsumer;
  const source = (outbox?.events ?? []).flatMap((e: { stream?: Record<string, unknown> }) =>
    e.stream ? [e.stream] : [],
  );
  type ImagePattern = {
    dynamodb: { Keys: Record<string, { S: Rule[] }>; NewImage?: Record<string, { S: Rule[] }> };
  };
  const ruleMatches = (rules: Rule[], value: unknown) =>
    typeof value === 'string' &&
    rules.some((r) => (typeof r === 'string' ? value === r : value.startsWith(r.prefix)));
  const passes = (c: StreamChange) =>
    ((source[0]?.filterPatterns ?? []) as ImagePattern[]).some(
      (p) =>
        Object.entries(p.dynamodb.Keys).every(([a, { S }]) => ruleMatches(S, c.keys[a])) &&
        Object.entries(p.dynamodb.NewImage ?? {}).every(([a, { S }]) => ruleMatches(S, c.newImage?.[a])),
    );
  const change = (keys: ItemKey, state: string | undefined): StreamChange => ({
    eventName: 'MODIFY',
    eventId: 'e',
    sequenceNumber: '1',
    keys,
    oldImage: { ...keys },
    newImage: state === undefined ? undefined : { ...keys, state },
  });

  it("is the stream's second reader, handled by functions/streams/outbox.ts, with the main consumer's safety settings", () => {
    expect(outbox?.handler).toBe('functions/streams/outbox.handler');
    expect(outbox?.role).toBe('OutboxConsumerRole');
    const readers = Object.values(functions).filter((f) =>
      ((f as { events?: Array<{ stream?: unknown }> }).events ?? []).some((e) => e.stream),
    );
    // a DynamoDB stream allows two readers per shard
    expect(readers).toHaveLength(2);
    expect(source).toHaveLength(1);
    expect(source[0]).toMatchObject({
      ...TABLE_STREAM_READER,
      maximumRetryAttempts: streams[0]?.maximumRetryAttempts,
      parallelizationFactor: streams[0]?.parallelizationFactor,
      maximumRecordAgeInSeconds: streams[0]?.maximumRecordAgeInSeconds,
      destinations: { onFailure: { arn: 'StreamFailureQueue.Arn', type: 'sqs' } },
    });
  });

  it('is invoked exactly for what its processor wants: outbox messages that became ready', () => {
    const cases = [
      ...['open', 'ready', 'sending', 'retry', 'sent', 'failed'].map((state) =>
        change(outboxKey('O1'), state),
      ),
      change(outboxKey('O1'), undefined),
      ...Object.values({
        book: bookKey('B1'),
        scan: matchScanKey('B1', '2026-01-01T00:00:00.000Z'),
        user: userKey('U1'),
      }).map((k) => change(k, 'ready')),
    ];
    const wanted = cases.filter((c) => outboxProcessors.some((p) => p.wants(c)));
    expect(wanted.map((c) => [c.keys.pk, c.newImage?.state])).toEqual([['OUTBOX#O1', 'ready']]);
    for (const c of cases) expect(passes(c), `${c.keys.pk} ${c.newImage?.state}`).toBe(wanted.includes(c));
  });

  it("leaves outbox messages to the outbox consumer: the main consumer's filter keeps them out", () => {
    const main = (streams[0]?.filterPatterns ?? []) as Pattern[];
    expect(main.some((p) => matchesPattern(p, outboxKey('O1')))).toBe(false);
  });
});
