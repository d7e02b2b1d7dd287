import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ASSET_NAMES, encodedAsset } from '#lib/docs/assets.ts';
import { DOCS_SECURITY_HEADERS, DOCS_START_JS, docsNotFound } from '#lib/docs/page.ts';
import type { RawRouteSpec } from '#lib/http/spec.ts';

const ROUTE = 'GET /api/docs/assets/{file}';
const START_FILE = 'docs.js';

const spec: RawRouteSpec = {
  kind: 'raw',
  summary: "The documentation page's scripts and styles",
  description:
    'Swagger UI from the npm package swagger-ui-dist, compressed (br or gzip) when the client accepts it.',
  credentials: [],
  params: {
    json: {
      type: 'object',
      properties: { file: { type: 'string', enum: [...ASSET_NAMES, START_FILE].sort() } },
      required: ['file'],
    },
  },
  responses: {
    200: {
      description: 'The file.',
      contentType: ['text/javascript', 'text/css'],
      schema: { json: { type: 'string' } },
    },
  },
  errors: [404],
};

const cacheable = {
  ...DOCS_SECURITY_HEADERS,
  'Cache-Control': 'public, max-age=3600',
  Vary: 'Accept-Encoding',
};

/** GET /api/docs/assets/{file} */
export const handler = Object.assign(
  async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const file = event.pathParameters?.file ?? '';
    if (file === START_FILE) {
      return {
        statusCode: 200,
        headers: { ...cacheable, 'Content-Type': 'text/javascript; charset=utf-8' },
        body: DOCS_START_JS,
      };
    }
    const acceptEncoding = Object.entries(event.headers ?? {}).find(
      ([k]) => k.toLowerCase() === 'accept-encoding',
    )?.[1];
    const asset = encodedAsset(file, acceptEncoding);
    if (!asset) return docsNotFound(ROUTE, 'No such file.');
    return {
      statusCode: 200,
      headers: {
        ...cacheable,
        'Content-Type': asset.contentType,
        ...(asset.encoding === 'identity' ? {} : { 'Content-Encoding': asset.encoding }),
      },
      body: asset.body.toString('base64'),
      isBase64Encoded: true,
    };
  },
  { spec },
);
