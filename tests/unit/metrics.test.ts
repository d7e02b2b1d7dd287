/**
 * What a deployed function prints for its business events (lib/metrics.ts, Powertools Metrics):
 * one CloudWatch embedded-metric-format line per invocation, with the namespace, metric and the
 * dimensions service and stage that the EmailsFailed and OutboxFailed alarms watch
 * (tests/package/operations.test.ts). Published by the HTTP stack after the handler, whether it
 * answered or threw, and by `withMetrics` around the background handlers; nothing at all (not
 * even a warning) for an invocation that counted nothing. The modules are loaded fresh under a
 * deployed stage's settings, and the lines are read from the process's real stdout and stderr.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeContext, makeEvent } from '#tests/helpers/lambda.ts';
import { printedLines } from '#tests/helpers/output.ts';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  vi.resetModules();
});

/** lib/metrics.ts and the HTTP stack, loaded afresh with STAGE=`stage`. */
async function load(stage: string) {
  vi.resetModules();
  vi.stubEnv('STAGE', stage);
  vi.stubEnv('PUBLIC_URL', 'https://books.example.edu');
  vi.stubEnv('MAIL_FROM', 'Campus Books <no-reply@books.example.edu>');
  return { ...(await import('#lib/metrics.ts')), ...(await import('#lib/http/stack.ts')) };
}

/** Every line `run` wrote to stdout or stderr. */
const printed = async (run: () => unknown): Promise<string[]> => (await printedLines(run)).map((l) => l.text);

type Emf = Record<string, unknown> & {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: unknown[] }[];
  };
};
const parse = (lines: string[]) => lines.map((l) => JSON.parse(l) as Emf);

describe('business metrics on a deployed stage', () => {
  it.each(['EmailsFailed', 'SignUps'] as const)(
    'prints %s as EMF in namespace CampusBooks with the dimensions service and stage',
    async (event) => {
      const { countEvent, publishMetrics, recordedMetrics } = await load('prod');
      const lines = await printed(() => {
        countEvent(event);
        publishMetrics();
      });
      expect(recordedMetrics(event)).toBe(1);
      const [line, ...more] = parse(lines);
      expect(more).toEqual([]);
      expect(line).toMatchObject({ service: 'campus-books', stage: 'prod', [event]: 1 });
      expect(Math.abs((line?._aws.Timestamp ?? 0) - Date.now())).toBeLessThan(60_000);
      expect(line?._aws.CloudWatchMetrics).toEqual([
        {
          Namespace: 'CampusBooks',
          Dimensions: [['service', 'stage']],
          Metrics: [{ Name: event, Unit: 'Count' }],
        },
      ]);
    },
  );

  it('keeps two stages apart by the stage dimension', async () => {
    const checkoutOn = async (stage: string) => {
      const { countEvent, publishMetrics } = await load(stage);
      return parse(
        await printed(() => {
          countEvent('Checkouts');
          publishMetrics();
        }),
      );
    };
    const devLines = await checkoutOn('dev');
    const prodLines = await checkoutOn('prod');
    expect([...devLines, ...prodLines].map((l) => [l.stage, l.Checkouts])).toEqual([
      ['dev', 1],
      ['prod', 1],
    ]);
  });

  it('publishes what a request counted once, after the handler, also when it throws, and nothing for a request that counted nothing', async () => {
    const { baseStack, countEvent } = await load('prod');
    const handler = baseStack(async (event) => {
      countEvent('BooksPosted');
      countEvent('Matches', 2);
      if (event.rawPath.endsWith('/fail')) throw new Error('boom');
      return { statusCode: 201 };
    });
    const quiet = baseStack(async () => ({ statusCode: 200 }));
    const answered = await printed(() =>
      handler(makeEvent({ method: 'POST', route: '/api/books' }), makeContext()),
    );
    expect(parse(answered).map((l) => [l.BooksPosted, l.Matches])).toEqual([[1, 2]]);
    expect(parse(answered)[0]?._aws.CloudWatchMetrics[0]?.Metrics).toEqual([
      { Name: 'BooksPosted', Unit: 'Count' },
      { Name: 'Matches', Unit: 'Count' },
    ]);
    const failed = await printed(async () => {
      const reply = await handler(makeEvent({ method: 'POST', route: '/api/books/fail' }), makeContext());
      expect(reply).toMatchObject({ statusCode: 500 });
    });
    // the error mapper's log line, then the metrics
    const failedEmf = failed.filter((l) => l.includes('"_aws"'));
    expect(parse(failedEmf).map((l) => [l.BooksPosted, l.Matches])).toEqual([[1, 2]]);
    expect(await printed(() => quiet(makeEvent({ route: '/api/ping' }), makeContext()))).toEqual([]);
  });

  it('publishes what a background handler counted when it ends, returned or thrown', async () => {
    const { countEvent, withMetrics } = await load('prod');
    const job = withMetrics(async (fail: boolean) => {
      countEvent('EmailsSent', 3);
      if (fail) throw new Error('SES down');
      return 'done';
    });
    const done = await printed(async () => expect(await job(false)).toBe('done'));
    const thrown = await printed(async () => expect(job(true)).rejects.toThrow('SES down'));
    expect(parse([...done, ...thrown]).map((l) => [l.EmailsSent, l.stage])).toEqual([
      [3, 'prod'],
      [3, 'prod'],
    ]);
    expect(await printed(() => withMetrics(async () => 'nothing counted')())).toEqual([]);
  });

  it('prints nothing on the test stage (the counts stay in memory)', async () => {
    const { countEvent, publishMetrics, recordedMetrics } = await load('test');
    const lines = await printed(() => {
      countEvent('EmailsFailed');
      publishMetrics();
    });
    expect(lines).toEqual([]);
    expect(recordedMetrics('EmailsFailed')).toBe(1);
  });
});

describe('background handlers', () => {
  it('every stream consumer and scheduled job publishes what it counted (withMetrics)', async () => {
    const { PUBLISHES_METRICS } = await import('#lib/metrics.ts');
    const root = path.join(import.meta.dirname, '..', '..', 'functions');
    const modules = ['streams', 'scheduled'].flatMap((dir) =>
      readdirSync(path.join(root, dir))
        .filter((f) => f.endsWith('.ts'))
        .map((f) => `${dir}/${f}`),
    );
    const handlers: Record<string, boolean> = {};
    for (const name of modules) {
      const mod = (await import(`#functions/${name}`)) as { handler?: object };
      if (mod.handler) handlers[name] = PUBLISHES_METRICS in mod.handler;
    }
    expect(Object.keys(handlers).length).toBe(7);
    expect(Object.entries(handlers).filter(([, publishes]) => !publishes)).toEqual([]);
  });
});
