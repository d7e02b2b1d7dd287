/**
 * The structured JSON logger, one per container: Powertools Logger. Never log passwords, tokens or
 * bodies: nothing here logs an event, and the HTTP stack's context middleware is told never to
 * (`logEvent: false`, whatever `POWERTOOLS_LOGGER_LOG_EVENT` says).
 *
 * One JSON object a line: level, message, timestamp, service (`campus-books`), the stage, and in an
 * HTTP function the Lambda context's function_* keys, cold_start and the route
 * (lib/http/stack.ts: `injectLambdaContext` with `resetKeys`, so one request's keys never reach the
 * next). Levels: TRACE, DEBUG, INFO, WARN, ERROR, CRITICAL, SILENT (`LOG_LEVEL`, checked by
 * lib/config.ts); WARN and above go to stderr. An Error, alone or anywhere in the extra fields, is
 * written as its name, location, message and stack.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { config } from './config.ts';

export { Logger };

export const SERVICE_NAME = 'campus-books';

/** A logger with the project's settings: the service name, and the stage on every line. */
export function createLogger(level: typeof config.LOG_LEVEL, stage: string): Logger {
  return new Logger({ serviceName: SERVICE_NAME, logLevel: level, persistentKeys: { stage } });
}

export const logger = createLogger(config.LOG_LEVEL, config.STAGE);
