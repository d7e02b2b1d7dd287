/**
 * CORS has one owner: the HTTP API's configuration (serverless.yml `provider.httpApi.cors`), which
 * serverless-offline applies here as API Gateway does on AWS. The functions set no CORS header
 * (tests/integration/http/stack.test.ts), so each answer carries exactly one allowed origin.
 * The server runs with CORS_ORIGINS='http://localhost:3000, http://127.0.0.1:3000' (a list).
 */
import { describe, expect, it } from 'vitest';
import { api, apiUrl } from '#tests/helpers/e2e.ts';

const PATH = '/api/books/getBooksNoToken/5/0';
const ORIGINS = ['http://localhost:3000', 'http://127.0.0.1:3000'];

const preflight = (origin: string) =>
  fetch(`${apiUrl()}${PATH}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type,idempotency-key',
    },
  });

const list = (h: string | null) =>
  (h ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

describe('CORS (the HTTP API answers it, from the stage list)', () => {
  it.each(ORIGINS)('answers a preflight from %s, allowing the headers the API takes', async (origin) => {
    const res = await preflight(origin);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(list(res.headers.get('access-control-allow-headers'))).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'if-none-match']),
    );
  });

  it('gives a preflight from an origin not on the list no permission', async () => {
    const res = await preflight('https://evil.example');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it.each(ORIGINS)(
    'lets %s read an answer, exposing Retry-After, Idempotent-Replayed and ETag',
    async (origin) => {
      const res = await api('GET', PATH, { headers: { origin } });
      expect(res.status).toBe(200);
      // One value, not the function's and the gateway's side by side.
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      // As a set: serverless-offline's hapi names them twice (both from the same configuration).
      expect([...new Set(list(res.headers.get('access-control-expose-headers')))].sort()).toEqual([
        'etag',
        'idempotent-replayed',
        'retry-after',
      ]);
    },
  );
});
