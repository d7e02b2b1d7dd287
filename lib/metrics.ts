/**
 * Business metrics (Powertools Metrics, CloudWatch embedded metric format): namespace CampusBooks,
 * dimension service=campus-books. Each event is published at once as one log line, so no handler
 * needs a flush middleware. On the emulated stages (local, test) nothing is printed; the counts
 * are kept in memory instead (`recordedMetrics`) so tests can check them.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { config } from './config.ts';

export type BusinessEvent =
  | 'SignUps'
  | 'BooksPosted'
  | 'Checkouts'
  | 'Matches'
  | 'EmailsSent'
  | 'EmailsFailed'
  | 'OutboxFailed';

export const METRICS_NAMESPACE = 'CampusBooks';

const emulated = config.STAGE === 'local' || config.STAGE === 'test';
let metrics: Metrics | undefined; // built on the first event of a deployed stage
const recorded = new Map<BusinessEvent, number>();

/** Counts one business event (or `n`). Never throws: a metric must not fail a request. */
export function countEvent(event: BusinessEvent, n = 1): void {
  recorded.set(event, (recorded.get(event) ?? 0) + n);
  if (emulated) return;
  try {
    metrics ??= new Metrics({ namespace: METRICS_NAMESPACE, serviceName: 'campus-books' });
    metrics.addMetric(event, MetricUnit.Count, n);
    metrics.publishStoredMetrics();
  } catch {
    // ignore: metrics are best effort
  }
}

/** How many of `event` this process counted (tests). */
export function recordedMetrics(event: BusinessEvent): number {
  return recorded.get(event) ?? 0;
}
