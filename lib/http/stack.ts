/**
 * The outer Middy stack shared by every HTTP function (marketplace and sample service): structured
 * logs with request id and route (Powertools Logger's `injectLambdaContext`, keys reset after each
 * request), business metrics published once per request, header normalising, security headers and
 * one error mapper. It imports no database code, so the sample functions stay small.
 *
 * No CORS here: the HTTP API's own CORS configuration (serverless.yml `provider.httpApi.cors`) is
 * the one place that answers preflights and sets the CORS headers, on AWS (API Gateway) and
 * locally (serverless-offline reads the same block). See docs/deploy.md, "Limits at the edge".
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpSecurityHeaders from '@middy/http-security-headers';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { config } from '#lib/config.ts';
import { Forbidden } from '#lib/errors.ts';
import { logger } from '#lib/logger.ts';
import { flushMetrics } from '#lib/metrics.ts';
import { originVerified } from './client-address.ts';
import { errorMapper, routeOf } from './error-mapper.ts';

/**
 * On a deployed stage, 403 for a request that did not come through the stage's CloudFront (no or a
 * wrong origin-verify header: a direct execute-api call, which WAF never saw). No secret (local,
 * test): no check. lib/http/client-address.ts.
 */
export const originCheck = (
  secret: string | undefined = config.ORIGIN_VERIFY_SECRET,
): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> => ({
  before: (request) => {
    if (secret && !originVerified(request.event, secret))
      throw new Forbidden('Call the API through the site.', 'ORIGIN_NOT_VERIFIED');
  },
});

/**
 * The common outer stack (logs, metrics, headers, error mapping), shared with the sample service.
 * Middy runs `after` and `onError` in reverse order, so the error mapper logs with the request's
 * keys before the logger's reset, and the metrics are published after the handler either way.
 * The event itself is never logged (`logEvent: false`): it holds bodies (passwords) and the
 * Authorization header.
 */
export function baseStack(
  core: (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>,
  mapError: middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> = errorMapper,
) {
  return middy<APIGatewayProxyEventV2, APIGatewayProxyResultV2>(core)
    .use(injectLambdaContext(logger, { resetKeys: true, logEvent: false }))
    .use({
      before: (request) => {
        logger.appendKeys({ route: routeOf(request.event) });
      },
    })
    .use(flushMetrics)
    .use(httpHeaderNormalizer())
    .use(httpSecurityHeaders())
    .use(originCheck())
    .use(mapError);
}
