import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { DOCS_PAGE_HTML, DOCS_SECURITY_HEADERS } from '#lib/docs/page.ts';
import type { RawRouteSpec } from '#lib/http/spec.ts';

const spec: RawRouteSpec = {
  kind: 'raw',
  summary: 'The API documentation page',
  description: 'Swagger UI rendering /api/openapi.json, served by the service itself (works offline).',
  credentials: [],
  responses: {
    200: { description: 'An HTML page.', contentType: 'text/html', schema: { json: { type: 'string' } } },
  },
};

/** GET /api/docs */
export const handler = Object.assign(
  async (): Promise<APIGatewayProxyStructuredResultV2> => ({
    statusCode: 200,
    headers: {
      ...DOCS_SECURITY_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-cache',
    },
    body: DOCS_PAGE_HTML,
  }),
  { spec },
);
