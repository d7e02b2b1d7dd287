/**
 * The outer Middy stack shared by every HTTP function (marketplace and sample service): structured
 * logs with request id and route, header normalising, security headers and one error mapper. It
 * imports no database code, so the sample functions stay small.
 *
 * No CORS here: the HTTP API's own CORS configuration (serverless.yml `provider.httpApi.cors`) is
 * the one place that answers preflights and sets the CORS headers, on AWS (API Gateway) and
 * locally (serverless-offline reads the same block). See docs/deploy.md, "Limits at the edge".
 */
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpSecurityHeaders from '@middy/http-security-headers';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { logger } from '#lib/logger.ts';
import { errorMapper, routeOf } from './error-mapper.ts';

/** The common outer stack (logs, headers, error mapping), shared with the sample service. */
export function baseStack(
  core: (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>,
  mapError: middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> = errorMapper,
) {
  return middy<APIGatewayProxyEventV2, APIGatewayProxyResultV2>(core)
    .use({
      before: (request) => {
        logger.startInvocation(request.context);
        logger.appendKeys({ route: routeOf(request.event) });
      },
    })
    .use(httpHeaderNormalizer())
    .use(httpSecurityHeaders())
    .use(mapError);
}
