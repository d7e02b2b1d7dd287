import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
// The committed document (npm run openapi), bundled: no handler is imported at run time.
import document from '#docs/openapi.json' with { type: 'json' };
import { DOCS_SECURITY_HEADERS } from '#lib/docs/page.ts';
import type { RawRouteSpec } from '#lib/http/spec.ts';

const body = JSON.stringify(document);

const spec: RawRouteSpec = {
  kind: 'raw',
  summary: 'This OpenAPI 3.1 document',
  description:
    'Generated from the zod schemas the handlers validate with; the same file as docs/openapi.json.',
  credentials: [],
  responses: {
    200: {
      description: 'The OpenAPI document.',
      contentType: 'application/json',
      schema: {
        json: {
          type: 'object',
          properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
          required: ['openapi', 'info', 'paths'],
        },
      },
    },
  },
};

/** GET /api/openapi.json */
export const handler = Object.assign(
  async (): Promise<APIGatewayProxyStructuredResultV2> => ({
    statusCode: 200,
    headers: {
      ...DOCS_SECURITY_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
    },
    body,
  }),
  { spec },
);
