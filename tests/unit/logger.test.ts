/**
 * The structured logger (lib/logger.ts): one JSON object a line with the Lambda context's keys,
 * levels below the threshold dropped, Errors written as name, message and stack, per-request keys
 * cleared when the next invocation starts.
 */
import { describe, expect, it } from 'vitest';
import { Logger } from '#lib/logger.ts';

const context = {
  functionName: 'booksGetBook',
  memoryLimitInMB: '1024',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:booksGetBook',
  awsRequestId: 'req-1',
};

const parse = (line: string | null) => JSON.parse(line ?? 'null') as Record<string, unknown>;

describe('logger', () => {
  it('writes level, message, service, persistent and invocation keys, cold_start only on the first invocation', () => {
    const log = new Logger('campus-books', 'INFO', { stage: 'prod' });
    log.startInvocation(context);
    const first = parse(log.line('INFO', 'hello', { n: 1 }));
    expect(first).toMatchObject({
      level: 'INFO',
      message: 'hello',
      service: 'campus-books',
      stage: 'prod',
      n: 1,
      cold_start: true,
      function_name: 'booksGetBook',
      function_request_id: 'req-1',
    });
    expect(Number.isNaN(Date.parse(String(first.timestamp)))).toBe(false);
    log.startInvocation({ ...context, awsRequestId: 'req-2' });
    expect(parse(log.line('INFO', 'again'))).toMatchObject({
      cold_start: false,
      function_request_id: 'req-2',
    });
  });

  it('drops lines below its level', () => {
    const log = new Logger('campus-books', 'WARN');
    expect(log.line('INFO', 'quiet')).toBeNull();
    expect(log.line('DEBUG', 'quiet')).toBeNull();
    expect(parse(log.line('WARN', 'loud')).level).toBe('WARN');
    expect(new Logger('campus-books', 'CRITICAL').line('ERROR', 'x')).toBeNull();
  });

  it('writes an Error, alone or inside the extra fields, as its name, message and stack', () => {
    const log = new Logger('campus-books', 'DEBUG');
    const err = new TypeError('bad thing');
    expect(parse(log.line('ERROR', 'failed', err)).error).toMatchObject({
      name: 'TypeError',
      message: 'bad thing',
    });
    const nested = parse(log.line('WARN', 'retrying', { attempts: 2, error: err })).error as {
      stack?: string;
    };
    expect(nested.stack).toContain('bad thing');
  });

  it('clears appended keys when the next invocation starts', () => {
    const log = new Logger('campus-books', 'INFO');
    log.startInvocation(context);
    log.appendKeys({ route: 'GET /api/books/getBook/{bookId}' });
    expect(parse(log.line('INFO', 'a')).route).toBe('GET /api/books/getBook/{bookId}');
    log.startInvocation(context);
    expect(parse(log.line('INFO', 'b')).route).toBeUndefined();
  });
});
