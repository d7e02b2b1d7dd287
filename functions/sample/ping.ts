import { config } from '#lib/config.ts';
import { sampleHttp } from '#lib/http/sample.ts';
import { formatPingTime } from '#lib/sample/clock.ts';

/** GET /api/ping: the current date-time as text/plain. */
export const handler = sampleHttp({ apiKey: false }, async () => ({
  statusCode: 200,
  headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  body: formatPingTime(new Date(), config.PING_TIME_ZONE),
}));
