import { config } from '#lib/config.ts';
import { sampleHttp } from '#lib/http/sample.ts';
import * as z from '#lib/zod.ts';

const TestBody = z.strictObject({
  Name: z.string().check(z.describe('the configured Basic user')),
  Email: z.string().check(z.describe('SAMPLE_CONTACT_EMAIL')),
});

/** GET /api/test: who the sample credentials belong to. */
export const handler = sampleHttp(
  {
    apiKey: true,
    spec: {
      summary: 'Who the sample credentials belong to',
      description: 'Sample service: needs Basic credentials and the X-API-KEY header together.',
      contentType: 'application/json',
      schema: TestBody,
      example: { Name: 'sample', Email: 'sample@campusbooks.local' },
    },
  },
  async () => ({
    statusCode: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
    body: JSON.stringify({ Name: config.SAMPLE_BASIC_USER, Email: config.SAMPLE_CONTACT_EMAIL }),
  }),
);
