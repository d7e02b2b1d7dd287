/**
 * What a deployed function prints for a business event: one CloudWatch embedded-metric-format line
 * with the namespace, metric and dimensions the EmailsFailed alarm watches
 * (tests/package/operations.test.ts). The module is loaded fresh under a deployed stage's settings.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  vi.resetModules();
});

async function emitted(event: 'EmailsFailed' | 'SignUps', stage: string): Promise<Record<string, unknown>[]> {
  vi.resetModules();
  vi.stubEnv('STAGE', stage);
  vi.stubEnv('PUBLIC_URL', 'https://books.example.edu');
  vi.stubEnv('MAIL_FROM', 'Campus Books <no-reply@books.example.edu>');
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  const { countEvent, recordedMetrics } = await import('#lib/metrics.ts');
  countEvent(event);
  expect(recordedMetrics(event)).toBe(1);
  return lines
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.includes('"_aws"'))
    .map((l) => JSON.parse(l));
}

describe('business metrics on a deployed stage', () => {
  it.each(['EmailsFailed', 'SignUps'] as const)(
    'prints %s as EMF in namespace CampusBooks with the dimension service=campus-books',
    async (event) => {
      const [line, ...more] = await emitted(event, 'prod');
      expect(more).toEqual([]);
      expect(line?.[event]).toBe(1);
      expect(line?.service).toBe('campus-books');
      const aws = line?._aws as {
        CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: unknown[] }[];
      };
      expect(aws.CloudWatchMetrics).toEqual([
        { Namespace: 'CampusBooks', Dimensions: [['service']], Metrics: [{ Name: event, Unit: 'Count' }] },
      ]);
    },
  );

  it('prints nothing on the test stage (the counts stay in memory)', async () => {
    expect(await emitted('EmailsFailed', 'test')).toEqual([]);
  });
});
