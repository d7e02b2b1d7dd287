/**
 * Invoke handlers in-process with API Gateway HTTP API (payload 2.0) events, the way Lambda does.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { ulid } from 'ulid';

export interface EventInput {
  method?: string;
  /** route template, e.g. '/api/books/getBooksNoToken/{limit}/{skip}' */
  route: string;
  /** concrete path; defaults to the route with path parameters substituted */
  path?: string;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  token?: string;
  /** request cookies, `name=value` each (payload 2.0's `cookies`) */
  cookies?: string[];
}

export function makeEvent(input: EventInput): APIGatewayProxyEventV2 {
  const method = input.method ?? 'GET';
  let path = input.path ?? input.route;
  for (const [k, v] of Object.entries(input.pathParameters ?? {}))
    path = path.replace(`{${k}}`, encodeURIComponent(v));
  const headers: Record<string, string> = { ...input.headers };
  if (input.token) headers.authorization = `Bearer ${input.token}`;
  const body = input.rawBody ?? (input.body === undefined ? undefined : JSON.stringify(input.body));
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json';
  }
  return {
    version: '2.0',
    routeKey: `${method} ${input.route}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(input.query ?? {}).toString(),
    headers,
    ...(input.cookies ? { cookies: input.cookies } : {}),
    queryStringParameters: input.query,
    pathParameters: input.pathParameters,
    body,
    isBase64Encoded: false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      requestId: ulid(),
      routeKey: `${method} ${input.route}`,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
    },
  };
}

export function makeContext(): Context {
  const id = ulid();
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:test',
    memoryLimitInMB: '1024',
    awsRequestId: id,
    logGroupName: '/aws/lambda/test',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export interface InvokeResult {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** the response's Set-Cookie lines (payload 2.0's `cookies`) */
  cookies: string[];
  json: <T = unknown>() => T;
}

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

export async function invoke(handler: Handler, input: EventInput): Promise<InvokeResult> {
  const res = await handler(makeEvent(input), makeContext());
  if (typeof res === 'string')
    return { status: 200, headers: {}, body: res, cookies: [], json: () => JSON.parse(res) };
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers ?? {})) headers[k.toLowerCase()] = String(v);
  const body = res.body ?? '';
  return {
    status: res.statusCode ?? 200,
    headers,
    body,
    cookies: res.cookies ?? [],
    json: <T>() => JSON.parse(body) as T,
  };
}
