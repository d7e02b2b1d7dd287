/**
 * The shared HTTP layer: one Middy stack, composed here once, used by every marketplace handler.
 *
 *   export const handler = http({ body: PostBookBody }, async ({ body, principal }) =>
 *     created(await postBook(principal.userId, body)));
 *
 * Order of work on a request: logger context -> header normalising (CORS is the HTTP API's, not ours) ->
 * body (16 KB cap: 413; malformed JSON: 400) -> auth (bearer JWT; the user record is read so a
 * changed password or role applies at once) -> zod validation of params, query and body
 * (unknown fields rejected: 400 with details) -> handler -> envelope `{ data, time, method }`.
 * Errors from any step go through lib/http/error-mapper.ts.
 * A route is signed-in only unless its spec says `auth: 'none'` or `'optional'`; a paged route returns
 * a `Page<T>`.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Principal } from '#lib/accounts/principal.ts';
import { config } from '#lib/config.ts';
import { Forbidden } from '#lib/errors.ts';
import type { Page } from '#lib/table/page.ts';
import type * as z from '#lib/zod.ts';
import { authenticate } from './auth.ts';
import { assertCleanText, type BodyFormat, isFormBody, parseBody, skipFormBody } from './body.ts';
import { envelopeResponse } from './error-mapper.ts';
import type { RawResponse } from './spec.ts';
import { baseStack } from './stack.ts';
import { validate } from './validate.ts';

export type AuthMode = 'none' | 'optional' | 'required';

/** The roles a route can require, by name, and the least permissionType each stands for. */
export const ROLE_LEVEL = { admin: 1, owner: 2 } as const;
export type RoleName = keyof typeof ROLE_LEVEL;

type Schema = z.ZodMiniType;
type Out<S> = S extends z.ZodMiniType ? z.output<S> : undefined;
type PrincipalFor<A extends AuthMode> = A extends 'required'
  ? Principal
  : A extends 'optional'
    ? Principal | null
    : null;

export interface HttpOptions<A extends AuthMode, B, Q, P> {
  /**
   * Who may call: 'required' (a signed-in user; the default, so a route is closed unless it says
   * otherwise), 'optional' (anyone; the caller is known when signed in) or 'none' (anyone).
   */
  auth?: A;
  /**
   * Least role the caller needs ('admin' or 'owner'), checked right after authentication against
   * the role read from the user record (not the token): 403 otherwise. Implies `auth: 'required'`.
   */
  role?: RoleName;
  body?: B;
  /**
   * The body may also come as an HTML form (application/x-www-form-urlencoded), for a route a
   * page or a mail client posts to; the handler sees which in `bodyFormat`.
   */
  forms?: boolean;
  query?: Q;
  params?: P;
  /** Schema of `data` in a successful answer: tests check every answer against it, OpenAPI documents it. */
  response?: z.ZodMiniType;
  /** Status of a successful answer (default 200). */
  status?: number;
  /**
   * Other statuses a successful answer may have, with the same body (a `Reply` chooses): e.g. an
   * idempotent create answering 201 the first time and 200 after.
   */
  alsoStatus?: number[];
  /** One line for the OpenAPI document. */
  summary?: string;
  /** Error statuses this route can answer besides 400/401/413/500 (documented in OpenAPI). */
  errors?: number[];
  /**
   * The answer is a page: the handler returns a `Page<T>` (`{ items, next }`); `items` becomes the
   * answer's `data` and `next` its cursor.
   */
  paged?: boolean;
  /** Headers the route reads (e.g. Idempotency-Key), for the OpenAPI document. */
  headers?: string[];
  /**
   * Answers outside the envelope (a `RawReply`: an HTML page, a redirect), by status, for the
   * OpenAPI document, e.g. `{ 200: { description: 'Confirmed page', contentType: 'text/html' },
   * 302: { description: 'To APP_URL', headers: { Location: 'where to' } } }`. A status that also
   * has an enveloped answer lists both content types. With these, `response` may be left out.
   */
  rawResponses?: Record<number, RawResponse>;
  /**
   * Also take an HTML-form body (`application/x-www-form-urlencoded` or `multipart/form-data`, as
   * mail clients send RFC 8058 one-click POSTs). Unlike `forms`, such a body is size-capped but
   * never read: for a route that takes no fields (the one-click unsubscribe).
   */
  formBody?: boolean;
}

/** What a route declares about itself; attached to the handler as `handler.spec`. */
export type RouteSpec = HttpOptions<AuthMode, Schema | undefined, Schema | undefined, Schema | undefined> & {
  auth: AuthMode;
};

export interface HttpInput<A extends AuthMode, B, Q, P> {
  body: Out<B>;
  query: Out<Q>;
  params: Out<P>;
  principal: PrincipalFor<A>;
  headers: Record<string, string | undefined>;
  /** How the body was written (null: no body). */
  bodyFormat: BodyFormat | null;
  requestId: string;
  event: APIGatewayProxyEventV2;
}

/** A reply with a status other than 200, a cursor, or extra headers. */
export class Reply<T = unknown> {
  constructor(
    readonly data: T,
    readonly status = 200,
    readonly extra: { next?: string | null; headers?: Record<string, string>; cookies?: string[] } = {},
  ) {}
}

/** A response outside the envelope (an HTML page, a redirect). */
export class RawReply {
  constructor(
    readonly statusCode: number,
    readonly body: string,
    readonly headers: Record<string, string>,
  ) {}
}

export const ok = <T>(data: T): Reply<T> => new Reply(data, 200);
export const created = <T>(data: T): Reply<T> => new Reply(data, 201);
export const accepted = <T>(data: T): Reply<T> => new Reply(data, 202);

/** A paged route's answer: the page's items as `data`, its cursor as `next`. */
function pageReply(result: unknown): Reply {
  const { items, next } = (result ?? {}) as Partial<Page<unknown>>;
  if (!Array.isArray(items) || next === undefined) throw new Error('A paged route must return a Page<T>');
  return new Reply(items, 200, { next });
}

export const BODY_LIMIT_BYTES = 16 * 1024;

type HandlerFn<A extends AuthMode, B, Q, P> = (input: HttpInput<A, B, Q, P>) => Promise<unknown>;

/** Wraps a marketplace handler in the shared stack. */
export function http<
  A extends AuthMode = 'required',
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
>(options: HttpOptions<A, B, Q, P>, handler: HandlerFn<A, B, Q, P>) {
  const spec: RouteSpec = { ...options, auth: options.auth ?? 'required' };
  const wrapped = baseStack(async (event, context) => {
    const parsed =
      options.formBody && isFormBody(event)
        ? { value: skipFormBody(event, BODY_LIMIT_BYTES), format: 'form' as const }
        : parseBody(event, BODY_LIMIT_BYTES, options.forms ? ['json', 'form'] : ['json']);
    const principal = await authenticate(event.headers?.authorization, spec.auth);
    if (
      options.role !== undefined &&
      (principal === null || principal.permissionType < ROLE_LEVEL[options.role])
    ) {
      throw new Forbidden(
        options.role === 'owner' ? 'Only an owner may do this.' : 'Only an admin may do this.',
        'ROLE_REQUIRED',
      );
    }
    if (options.role !== undefined && config.REQUIRE_ADMIN_MFA && principal?.mfa !== true) {
      throw new Forbidden(
        'Sign in with your two-factor code to use the dashboard (turn two-factor sign-in on under Account first).',
        'MFA_REQUIRED',
      );
    }
    assertCleanText(event.pathParameters ?? {}, 'path');
    assertCleanText(event.queryStringParameters ?? {}, 'query');
    const params = validate('path', options.params, event.pathParameters ?? {});
    const query = validate('query', options.query, event.queryStringParameters ?? {});
    const body = validate('body', options.body, parsed.value ?? {});
    const result = await handler({
      body: body as Out<B>,
      query: query as Out<Q>,
      params: params as Out<P>,
      principal: principal as PrincipalFor<A>,
      headers: event.headers ?? {},
      bodyFormat: parsed.format,
      requestId: context.awsRequestId,
      event,
    });
    if (result instanceof RawReply) {
      return { statusCode: result.statusCode, headers: result.headers, body: result.body };
    }
    const reply =
      result instanceof Reply
        ? result
        : options.paged
          ? pageReply(result)
          : new Reply(result, options.status ?? 200);
    return envelopeResponse(event, reply.status, reply.data, reply.extra);
  });
  return Object.assign(wrapped, { spec });
}
