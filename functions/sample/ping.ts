import { config } from '#lib/config.ts';
import { sampleHttp } from '#lib/http/sample.ts';
import { formatPingTime } from '#lib/sample/clock.ts';
import * as z from '#lib/zod.ts';

const PingText = z
  .string()
  .check(
    z.regex(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2}$/),
    z.describe('DD.MM.YYYY, HH:MM:SS (24 h) in the zone PING_TIME_ZONE'),
  );

/** GET /api/ping: the current date-time as text/plain. */
export const handler = sampleHttp(
  {
    apiKey: false,
    spec: {
      summary: 'The current date and time',
      description: 'Sample service: the current date-time in PING_TIME_ZONE (default UTC), as plain text.',
      contentType: 'text/plain',
      schema: PingText,
      example: '21.11.2026, 14:05:09',
    },
  },
  async () => ({
    statusCode: 200,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    body: formatPingTime(new Date(), config.PING_TIME_ZONE),
  }),
);
