/**
 * The structured JSON logger, one per container. Never log passwords, tokens or bodies.
 *
 * One JSON object a line, in the shape Powertools Logger writes (level, message, timestamp,
 * service, the Lambda context's function_* keys and cold_start, xray_trace_id), so CloudWatch Logs
 * Insights queries read it the same. Written here in a few lines rather than with Powertools
 * Logger, whose 21 KB and set-up (a console of its own, environment probing) every cold start paid
 * (issue 19). Levels: DEBUG, INFO, WARN, ERROR, CRITICAL, SILENT (`LOG_LEVEL`); WARN and above go
 * to stderr. An Error anywhere in the extra fields is written as its name, message and stack.
 */
import type { Context } from 'aws-lambda';
import { config } from './config.ts';

const LEVELS = { DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, CRITICAL: 24, SILENT: 28 } as const;
type Level = keyof typeof LEVELS;

const levelOf = (name: string): number => LEVELS[name.toUpperCase() as Level] ?? LEVELS.INFO;

/** JSON.stringify's replacer: Errors as plain fields, bigints as strings. */
function plain(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

export class Logger {
  private readonly threshold: number;
  private temporary: Record<string, unknown> = {};
  private invocation: Record<string, unknown> = {};
  private coldStart = true;

  constructor(
    private readonly service: string,
    level: string,
    private readonly persistent: Record<string, unknown> = {},
  ) {
    this.threshold = levelOf(level);
  }

  /** A new invocation: its Lambda context's keys, and the previous one's appended keys cleared. */
  startInvocation(context: Partial<Context>): void {
    this.temporary = {};
    this.invocation = {
      cold_start: this.coldStart,
      function_name: context.functionName,
      function_memory_size: context.memoryLimitInMB,
      function_arn: context.invokedFunctionArn,
      function_request_id: context.awsRequestId,
    };
    this.coldStart = false;
  }

  /** Keys added to every line until the next invocation starts. */
  appendKeys(keys: Record<string, unknown>): void {
    Object.assign(this.temporary, keys);
  }

  debug(message: string, extra?: Record<string, unknown> | Error): void {
    this.write('DEBUG', message, extra);
  }
  info(message: string, extra?: Record<string, unknown> | Error): void {
    this.write('INFO', message, extra);
  }
  warn(message: string, extra?: Record<string, unknown> | Error): void {
    this.write('WARN', message, extra);
  }
  error(message: string, extra?: Record<string, unknown> | Error): void {
    this.write('ERROR', message, extra);
  }

  /** The line for a message (null when its level is below the threshold). */
  line(
    level: Exclude<Level, 'SILENT'>,
    message: string,
    extra?: Record<string, unknown> | Error,
  ): string | null {
    if (LEVELS[level] < this.threshold) return null;
    const trace = process.env._X_AMZN_TRACE_ID;
    return JSON.stringify(
      {
        level,
        message,
        timestamp: new Date().toISOString(),
        service: this.service,
        ...this.persistent,
        ...this.invocation,
        ...(trace ? { xray_trace_id: trace.split(';')[0]?.replace('Root=', '') } : {}),
        ...this.temporary,
        ...(extra instanceof Error ? { error: extra } : extra),
      },
      plain,
    );
  }

  private write(
    level: Exclude<Level, 'SILENT'>,
    message: string,
    extra?: Record<string, unknown> | Error,
  ): void {
    const text = this.line(level, message, extra);
    if (text === null) return;
    (LEVELS[level] >= LEVELS.WARN ? process.stderr : process.stdout).write(`${text}\n`);
  }
}

export const logger = new Logger('campus-books', config.LOG_LEVEL, { stage: config.STAGE });
