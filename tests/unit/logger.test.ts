/**
 * The structured logger (lib/logger.ts, Powertools Logger) as it prints: one JSON object a line on
 * stdout (WARN and above on stderr) with the service, the stage and the Lambda context's keys;
 * levels below the threshold dropped; Errors written as name, message and stack. Through the HTTP
 * stack (lib/http/stack.ts) every line of a request carries its request id and route, keys added
 * during one request are gone in the next, and the event (its body) is never logged. The lines
 * are read from the process's real stdout and stderr; the library is not replaced.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { baseStack } from '#lib/http/stack.ts';
import { createLogger, logger } from '#lib/logger.ts';
import { makeContext, makeEvent } from '#tests/helpers/lambda.ts';
import { printedLines } from '#tests/helpers/output.ts';

const context = {
  functionName: 'booksGetBook',
  memoryLimitInMB: '1024',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:booksGetBook',
  awsRequestId: 'req-1',
} as Context;

type Line = Record<string, unknown> & { stream: 'stdout' | 'stderr' };

/** What `run` printed on stdout and stderr, one parsed JSON object a line. */
const printed = async (run: () => unknown): Promise<Line[]> =>
  (await printedLines(run)).map(({ text, stream }) => ({ ...JSON.parse(text), stream }));

afterEach(() => {
  vi.restoreAllMocks();
  logger.setLogLevel('CRITICAL');
});

describe('logger', () => {
  it('writes level, message, service, stage and the Lambda context, cold_start only on the first invocation', async () => {
    // Lambda sets it in an on-demand container; without it Powertools reports no cold start
    vi.stubEnv('AWS_LAMBDA_INITIALIZATION_TYPE', 'on-demand');
    const log = createLogger('INFO', 'prod');
    vi.unstubAllEnvs();
    const [first, second] = await printed(() => {
      log.addContext(context);
      log.info('hello', { n: 1 });
      log.addContext({ ...context, awsRequestId: 'req-2' });
      log.info('again');
    });
    expect(first).toMatchObject({
      stream: 'stdout',
      level: 'INFO',
      message: 'hello',
      service: 'campus-books',
      stage: 'prod',
      n: 1,
      cold_start: true,
      function_name: 'booksGetBook',
      function_arn: context.invokedFunctionArn,
      function_memory_size: '1024',
      function_request_id: 'req-1',
    });
    expect(Number.isNaN(Date.parse(String(first?.timestamp)))).toBe(false);
    expect(second).toMatchObject({ message: 'again', cold_start: false, function_request_id: 'req-2' });
  });

  it('drops lines below its level and writes WARN and above to stderr', async () => {
    const lines = await printed(() => {
      const log = createLogger('WARN', 'prod');
      log.debug('quiet');
      log.info('quiet');
      log.warn('loud');
      log.error('louder');
      createLogger('CRITICAL', 'prod').error('dropped');
      createLogger('SILENT', 'prod').critical('dropped');
    });
    expect(lines.map((l) => [l.level, l.message, l.stream])).toEqual([
      ['WARN', 'loud', 'stderr'],
      ['ERROR', 'louder', 'stderr'],
    ]);
  });

  it('writes an Error, alone or inside the extra fields, as its name, message and stack', async () => {
    const err = new TypeError('bad thing');
    const [alone, nested] = await printed(() => {
      const log = createLogger('DEBUG', 'prod');
      log.error('failed', err);
      log.warn('retrying', { attempts: 2, error: err });
    });
    expect(alone?.error).toMatchObject({ name: 'TypeError', message: 'bad thing' });
    expect((alone?.error as { stack?: string } | undefined)?.stack).toContain('bad thing');
    expect(nested).toMatchObject({ attempts: 2, error: { name: 'TypeError', message: 'bad thing' } });
  });
});

describe('logger through the HTTP stack', () => {
  it('puts request id and route on every line of a request, clears its keys for the next, and never logs the body', async () => {
    const handler = baseStack(async (event) => {
      logger.info('handling', { path: event.rawPath });
      if (event.rawPath.endsWith('/fail')) {
        logger.appendKeys({ bookId: 'B1' });
        throw new Error('boom');
      }
      return { statusCode: 204 };
    });
    const secret = 'correct horse battery staple';
    const failing = makeContext();
    const next = makeContext();
    const lines = await printed(async () => {
      logger.setLogLevel('INFO');
      const body = { password: secret };
      await handler(makeEvent({ method: 'POST', route: '/api/auth/fail', body }), failing);
      await handler(makeEvent({ method: 'POST', route: '/api/auth/ok', body }), next);
    });
    expect(lines.map((l) => [l.message, l.function_request_id, l.route, l.bookId])).toEqual([
      ['handling', failing.awsRequestId, 'POST /api/auth/fail', undefined],
      ['unhandled error', failing.awsRequestId, 'POST /api/auth/fail', 'B1'],
      ['handling', next.awsRequestId, 'POST /api/auth/ok', undefined],
    ]);
    expect(lines.every((l) => l.stage === 'test' && l.service === 'campus-books')).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(secret);
  });

  it('does not log the event even when POWERTOOLS_LOGGER_LOG_EVENT asks for it', async () => {
    // Powertools reads the variable when the logger is built: load the modules afresh under it
    vi.resetModules();
    vi.stubEnv('POWERTOOLS_LOGGER_LOG_EVENT', 'true');
    vi.stubEnv('LOG_LEVEL', 'DEBUG');
    try {
      const stack = await import('#lib/http/stack.ts');
      const handler = stack.baseStack(async () => ({ statusCode: 204 }));
      const event: APIGatewayProxyEventV2 = makeEvent({
        method: 'POST',
        route: '/api/auth/login',
        body: { password: 'hunter2-hunter2' },
      });
      const lines = await printed(async () => {
        expect(await handler(event, makeContext())).toMatchObject({ statusCode: 204 });
        (await import('#lib/logger.ts')).logger.debug('after the request');
      });
      expect(lines.map((l) => l.message)).toEqual(['after the request']);
      expect(JSON.stringify(lines)).not.toContain('hunter2');
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});
