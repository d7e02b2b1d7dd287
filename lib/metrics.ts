/**
 * Business metrics in CloudWatch's embedded metric format (EMF): namespace CampusBooks, dimension
 * service=campus-books. Each event is one JSON line written straight to stdout (not through the
 * Lambda runtime's console, whose prefix would hide it from CloudWatch), so no handler needs a
 * flush middleware. Written here in a few lines rather than with Powertools Metrics, which put
 * 13 KB and its set-up into every cold start (issue 19). On the emulated stages (local, test)
 * nothing is printed; the counts are kept in memory instead (`recordedMetrics`) so tests can check them.
 */
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
const recorded = new Map<BusinessEvent, number>();

/** One EMF line: a count of `event` in the namespace, with the service dimension. */
export function emfLine(event: BusinessEvent, n: number, now: number = Date.now()): string {
  return JSON.stringify({
    _aws: {
      Timestamp: now,
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [['service']],
          Metrics: [{ Name: event, Unit: 'Count' }],
        },
      ],
    },
    service: 'campus-books',
    [event]: n,
  });
}

/** Counts one business event (or `n`). Never throws: a metric must not fail a request. */
export function countEvent(event: BusinessEvent, n = 1): void {
  recorded.set(event, (recorded.get(event) ?? 0) + n);
  if (emulated) return;
  try {
    process.stdout.write(`${emfLine(event, n)}\n`);
  } catch {
    // ignore: metrics are best effort
  }
}

/** How many of `event` this process counted (tests). */
export function recordedMetrics(event: BusinessEvent): number {
  return recorded.get(event) ?? 0;
}
