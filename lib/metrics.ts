/**
 * Business metrics through Powertools Metrics, in CloudWatch's embedded metric format (EMF):
 * namespace CampusBooks, dimensions service=campus-books and stage=<the stage> (a default
 * dimension, so two stages in one account keep apart; the alarms in infra/ops.yml name both).
 *
 * `countEvent` stores a count; `publishMetrics` writes what an invocation stored as one EMF line on
 * stdout and is called once per invocation: by `flushMetrics` in the HTTP stack (lib/http/stack.ts),
 * and by `withMetrics` around the stream consumers and scheduled jobs. It is ours rather than
 * Powertools' `logMetrics` middleware only to stay silent when nothing was counted (most requests),
 * where `publishStoredMetrics` warns on every call. On the emulated stages (local, test) nothing is
 * stored or printed; the counts are kept in memory instead (`recordedMetrics`) so tests can check them.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type middy from '@middy/core';
import { config } from './config.ts';
import { SERVICE_NAME } from './logger.ts';

export type BusinessEvent =
  | 'SignUps'
  | 'BooksPosted'
  | 'Checkouts'
  | 'Matches'
  | 'EmailsSent'
  | 'EmailsFailed'
  | 'OutboxFailed'
  | 'DigestRunsUnfinished';

export const METRICS_NAMESPACE = 'CampusBooks';

const emulated = config.STAGE === 'local' || config.STAGE === 'test';
const recorded = new Map<BusinessEvent, number>();

const metrics = new Metrics({
  namespace: METRICS_NAMESPACE,
  serviceName: SERVICE_NAME,
  defaultDimensions: { stage: config.STAGE },
});

/** Counts one business event (or `n`). Never throws: a metric must not fail a request. */
export function countEvent(event: BusinessEvent, n = 1): void {
  recorded.set(event, (recorded.get(event) ?? 0) + n);
  if (emulated) return;
  try {
    metrics.addMetric(event, MetricUnit.Count, n);
  } catch {
    // ignore: metrics are best effort
  }
}

/** Writes the counts stored since the last call as one EMF line (nothing when none). Never throws. */
export function publishMetrics(): void {
  if (!metrics.hasStoredMetrics()) return;
  try {
    metrics.publishStoredMetrics();
  } catch {
    // ignore: metrics are best effort
  }
}

/** The HTTP stack's flush: after the handler, whether it answered or threw. */
export const flushMetrics: middy.MiddlewareObj = {
  after: publishMetrics,
  onError: publishMetrics,
};

/** Set on a handler made by `withMetrics` (tests check every background handler has it). */
export const PUBLISHES_METRICS = Symbol('publishesMetrics');

/** A non-HTTP handler (stream consumer, scheduled job) that publishes its counts when it ends. */
export function withMetrics<A extends unknown[], R>(handler: (...args: A) => Promise<R>) {
  const wrapped = async (...args: A): Promise<R> => {
    try {
      return await handler(...args);
    } finally {
      publishMetrics();
    }
  };
  return Object.assign(wrapped, { [PUBLISHES_METRICS]: true as const });
}

/** How many of `event` this process counted (tests). */
export function recordedMetrics(event: BusinessEvent): number {
  return recorded.get(event) ?? 0;
}
