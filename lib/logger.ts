/** The structured JSON logger (Powertools), one per container. Never log passwords, tokens or bodies. */
import { Logger } from '@aws-lambda-powertools/logger';
import { config } from './config.ts';

export const logger = new Logger({
  serviceName: 'campus-books',
  logLevel: config.LOG_LEVEL as 'INFO',
  persistentKeys: { stage: config.STAGE },
});
