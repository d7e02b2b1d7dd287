/** Drives the real HTTP server started by tests/setup/e2e-server.ts, the way a client would. */
import { expect, inject } from 'vitest';
import { Book } from '#lib/books/schemas.ts';
import { BookRequest } from '#lib/matching/requests.ts';
import { expectEnvelope } from '#tests/helpers/schema.ts';
import { contractProblems, routeTemplateOf } from './openapi.ts';

export const apiUrl = () => inject('apiUrl');
export const sesUrl = () => inject('sesUrl');

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

export interface ApiOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * The route template the request is meant for (e.g. '/api/books/getBooksNoToken/{limit}/{skip}');
   * by default the most specific documented template matching the path, as API Gateway picks it.
   */
  route?: string;
  /**
   * Every answer is checked against docs/openapi.json (status, content type, body schema) and a
   * mismatch fails the test, as does a path no documented route matches (so every new route is
   * checked). `false` skips that for a request that deliberately leaves the contract (say, one API
   * Gateway itself answers).
   */
  documented?: boolean;
}

export async function api(method: string, path: string, options: ApiOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${apiUrl()}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: 'manual',
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  const response = { status: res.status, headers: res.headers, text, body };
  if (options.documented === false) return response;
  const route = options.route ?? routeTemplateOf(method, path);
  if (!route)
    expect.fail(
      `${method} ${path} (answered ${res.status}) has no documented route in docs/openapi.json: ` +
        'document the route (npm run openapi), or pass { documented: false } for a request that ' +
        'deliberately leaves the contract',
    );
  const problems = contractProblems(
    { status: res.status, contentType: res.headers.get('content-type'), text },
    method,
    route,
  );
  if (problems.length > 0) expect.fail(`response off the OpenAPI contract:\n${problems.join('\n')}`);
  return response;
}

/** A tag no other test's titles and courses carry, for matching only what a test lists. */
export const uniqueTag = (): string => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Asks for a book over HTTP (POST requestBook, 201); returns the stored request. */
export async function requestOverHttp(token: string, body: { name: string; course: string }) {
  const res = await api('POST', '/api/books/requestBook', { token, body });
  expect(res.status).toBe(201);
  return expectEnvelope(res.body, BookRequest);
}

/** Lists a book over HTTP (POST postBook, 201); returns the stored book. */
export async function postBookOverHttp(token: string, body: object) {
  const res = await api('POST', '/api/books/postBook', { token, body });
  expect(res.status).toBe(201);
  return expectEnvelope(res.body, Book);
}

export interface SesMessage {
  from: string;
  destination: { to: string[]; cc?: string[]; bcc?: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}

/** Every e-mail the SES emulator has received so far. */
export async function sentEmails(): Promise<SesMessage[]> {
  const res = await fetch(`${sesUrl()}/store`);
  const store = (await res.json()) as { emails: SesMessage[] };
  return store.emails;
}

/**
 * Waits until at least `count` e-mails to `to` whose subject matches are in the store, and returns
 * them all (oldest first), so a test can then assert that there are exactly as many as it expects.
 */
export async function waitForEmails(
  to: string,
  count: number,
  subject: RegExp = /./,
  timeoutMs = 15_000,
): Promise<SesMessage[]> {
  const deadline = Date.now() + timeoutMs;
  let found: SesMessage[] = [];
  while (Date.now() < deadline) {
    found = (await sentEmails()).filter((m) => m.destination.to.includes(to) && subject.test(m.subject));
    if (found.length >= count) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${found.length} of ${count} e-mails to ${to} matching ${subject} within ${timeoutMs} ms`);
}

/** Waits for an e-mail to `to` whose subject matches, and returns the newest such. */
export async function waitForEmail(to: string, subject: RegExp, timeoutMs = 15_000): Promise<SesMessage> {
  const found = await waitForEmails(to, 1, subject, timeoutMs);
  return found.at(-1) as SesMessage;
}
