import { config } from '#lib/config.ts';
import { sampleHttp } from '#lib/http/sample.ts';

/** GET /api/test: who the sample credentials belong to. */
export const handler = sampleHttp({ apiKey: true }, async () => ({
  statusCode: 200,
  headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
  body: JSON.stringify({ Name: config.SAMPLE_BASIC_USER, Email: config.SAMPLE_CONTACT_EMAIL }),
}));
